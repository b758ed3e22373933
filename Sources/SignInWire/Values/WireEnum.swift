/// A proto enum on the wire: written as its name (`"PASSWORD_RESET"`), read as its name or, as
/// some SDKs send it, its number (`6`, `"6"`: the Android SDK sends `requestType: 6`). A value
/// that is neither is refused with `INVALID_ARGUMENT` naming the field, as Firebase refuses it.
///
/// - Concurrency: `Sendable` values.
package protocol WireEnum: RawRepresentable<String>, LenientValue, Hashable, CaseIterable {
  /// The case's number in Google's proto (its place in the discovery document's list).
  var protoNumber: Int { get }
}

extension WireEnum {
  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Int.self),
      let value = Self.allCases.first(where: { $0.protoNumber == number })
    {
      self = value
      return
    }
    let text = try container.decode(String.self)
    if let value = Self(rawValue: text)
      ?? Int(text).flatMap({ number in Self.allCases.first { $0.protoNumber == number } })
    {
      self = value
      return
    }
    throw DecodingError.dataCorruptedError(
      in: container, debugDescription: "expected one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
  }

  /// In a reply: a value this client does not know is no value.
  package static func lenient(from container: any SingleValueDecodingContainer) -> Self? {
    try? container.decode(Self.self)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
