import Foundation
import SignInCrypto
import SignInFoundation

/// A JSON object reply read tolerantly, as Firebase's wire reference and OAuth servers need:
/// every field may be missing, a missing boolean is false, an empty string is no value, and
/// numbers may come as strings (`expiresIn: "3600"`, `createdAt: "1700000000000"`) or as numbers.
///
/// - Concurrency: `Sendable` value.
struct JSONReply: Sendable {
  let fields: [String: JSONValue]

  init(_ fields: [String: JSONValue]) { self.fields = fields }

  func string(_ key: String) -> String? {
    guard let value = fields[key]?.string, !value.isEmpty else { return nil }
    return value
  }

  func bool(_ key: String) -> Bool {
    switch fields[key] {
    case .bool(let value)?: value
    case .string(let value)?: value == "true"
    default: false
    }
  }

  func number(_ key: String) -> Double? {
    switch fields[key] {
    case .number(let value)?: value
    case .string(let value)?: Double(value)
    default: nil
    }
  }

  /// An RFC 3339 time (`enrolledAt`, `finalizeEnrollmentTime`), with or without fractional
  /// seconds; `nil` when absent or unreadable.
  func date(rfc3339 key: String) -> Date? { Self.date(rfc3339: string(key)) }

  /// `text` as an RFC 3339 time, with or without fractional seconds; `nil` when absent or
  /// unreadable.
  static func date(rfc3339 text: String?) -> Date? {
    guard let text else { return nil }
    return (try? Date(text, strategy: .iso8601))
      ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
  }

  /// A field that must be there.
  func required(_ key: String, in call: String) throws -> String {
    guard let value = string(key) else {
      throw AuthError(
        .invalidResponse, "The server's reply to \(call) has no \(key). Try again; if it persists, check the backend.")
    }
    return value
  }

  /// A duration in seconds (`expiresIn`, `expires_in`, `interval`), `nil` when absent.
  ///
  /// A server's number is checked before it becomes a `Duration`: one that is not finite
  /// (`"nan"`, `"1e300"` overflows), negative or outside `bounds` would trap in the conversion or
  /// schedule nonsense, so it is ``AuthError/Code/invalidResponse`` naming the field.
  func duration(_ key: String, in call: String, within bounds: ClosedRange<Double>) throws -> Duration? {
    guard fields[key] != nil else { return nil }
    return try Self.duration(seconds: number(key), named: key, in: call, within: bounds)
  }

  /// ``duration(_:in:within:)`` for a field that is present, holding `seconds`.
  static func duration(
    seconds: Double?, named key: String, in call: String, within bounds: ClosedRange<Double>
  ) throws -> Duration {
    guard let seconds, seconds.isFinite, bounds.contains(seconds) else {
      throw AuthError(
        .invalidResponse,
        "The server's reply to \(call) has an unusable \(key) (expected \(Int(bounds.lowerBound))–"
          + "\(Int(bounds.upperBound)) seconds). Try again; if it persists, check the backend.")
    }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// A token lifetime: more than zero, at most a year.
  static let tokenLifetimes: ClosedRange<Double> = 0.001...(366 * 24 * 3600)

  /// A timestamp in milliseconds since 1970.
  func date(milliseconds key: String) -> Date? {
    number(key).map { Date(timeIntervalSince1970: $0 / 1000) }
  }
}
