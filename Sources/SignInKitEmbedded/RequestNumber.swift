import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// The one reader of the numbers a request carries, as `JSONReply.duration` is the client's: a
/// value is range-checked before it becomes an integer or a date, so `"1e300"`, `"nan"`,
/// `"inf"` or `9.3e18` is refused with Firebase's `INVALID_ARGUMENT` envelope instead of
/// trapping in a conversion. And the one writer of the numbers a reply carries, which never
/// traps whatever a stored value holds.
///
/// - Concurrency: stateless; any isolation.
package enum RequestNumber {
  /// Seconds since 1970 that a date may hold here: 0 through the end of 9999.
  package static let epochSeconds: ClosedRange<Int64> = 0...253_402_300_799

  /// An int64 as Google's JSON APIs take one: a JSON number with no fraction, or a string of
  /// decimal digits (with an optional sign), within `range`; `nil` when the field is absent.
  ///
  /// - Throws: `INVALID_ARGUMENT : Invalid value at '<field>' …` for anything else.
  package static func integer(_ value: JSONValue?, field: String, in range: ClosedRange<Int64>) throws -> Int64? {
    guard let value else { return nil }
    let parsed: Int64?
    switch value {
    case .string(let text):
      let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
      parsed = !digits.isEmpty && digits.allSatisfy(\.isASCIIDigitCharacter) ? Int64(text) : nil
    case .number(let number):
      parsed = number.isFinite && number.rounded(.towardZero) == number ? Int64(exactly: number) : nil
    default:
      parsed = nil
    }
    guard let parsed, range.contains(parsed) else {
      throw AuthError(
        FirebaseFailure.invalidValue(
          field: field,
          expected: "TYPE_INT64, \(value.jsonText): a whole number from \(range.lowerBound) to "
            + "\(range.upperBound)"))
    }
    return parsed
  }

  /// An integer query parameter (`maxResults`), as ``integer(_:field:in:)`` reads a string.
  package static func integer(query value: String?, field: String, in range: ClosedRange<Int64>) throws -> Int64? {
    try integer(value.map(JSONValue.string), field: field, in: range)
  }

  /// A date from a field of seconds since 1970 (`validSince`).
  package static func date(_ value: JSONValue?, field: String) throws -> Date? {
    try integer(value, field: field, in: epochSeconds).map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }

  /// `seconds` as a whole number for a reply: rounded down and kept within Int64 (a value that
  /// is not a number is 0), so a stored value out of range cannot trap here.
  package static func whole(_ seconds: Double) -> Int64 {
    guard seconds.isFinite else { return seconds.isNaN ? 0 : (seconds > 0 ? .max : .min) }
    let rounded = seconds.rounded(.down)
    if rounded >= 9.2e18 { return .max }
    if rounded <= -9.2e18 { return .min }
    return Int64(rounded)
  }
}

extension Character {
  fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
