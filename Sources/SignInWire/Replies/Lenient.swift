/// A reply field read the way clients of Firebase's REST API must read them: a missing field,
/// `null`, an empty string or a value of another type is no value, and numbers may come as
/// strings (`expiresIn: "3600"`, `createdAt: "1700000000000"`) or as numbers. A reply is never
/// refused for one odd field; the client decides which fields it cannot do without.
///
/// Written, it is its value, or nothing when there is none.
///
/// - Concurrency: `Sendable` value.
@propertyWrapper
package struct Lenient<Value: LenientValue>: Codable, Sendable, Equatable {
  package var wrappedValue: Value?

  package init() { wrappedValue = nil }
  package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  package init(from decoder: any Decoder) throws {
    guard let container = try? decoder.singleValueContainer(), !container.decodeNil() else {
      wrappedValue = nil
      return
    }
    wrappedValue = Value.lenient(from: container)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

/// A value a ``Lenient`` field can hold.
package protocol LenientValue: Codable, Sendable, Equatable {
  /// The value in `container`, or `nil` when what is there is not one.
  static func lenient(from container: any SingleValueDecodingContainer) -> Self?
}

extension String: LenientValue {
  /// A non-empty string, or a number's text (`3600`).
  package static func lenient(from container: any SingleValueDecodingContainer) -> String? {
    if let text = try? container.decode(String.self) { return text.isEmpty ? nil : text }
    if let whole = try? container.decode(Int64.self) { return String(whole) }
    return (try? container.decode(Double.self)).map { String($0) }
  }
}

extension Bool: LenientValue {
  /// `true` or `false`, or the strings `"true"` and `"false"`.
  package static func lenient(from container: any SingleValueDecodingContainer) -> Bool? {
    if let flag = try? container.decode(Bool.self) { return flag }
    switch try? container.decode(String.self) {
    case "true": return true
    case "false": return false
    default: return nil
    }
  }
}

extension Double: LenientValue {
  /// A number, or a string holding one (`"6"`).
  package static func lenient(from container: any SingleValueDecodingContainer) -> Double? {
    if let number = try? container.decode(Double.self) { return number }
    return (try? container.decode(String.self)).flatMap(Double.init)
  }
}

extension Array: LenientValue where Element: LenientValue {
  /// The entries that read as `Element`; others are left out.
  package static func lenient(from container: any SingleValueDecodingContainer) -> [Element]? {
    (try? container.decode([Entry].self))?.compactMap(\.value)
  }

  /// One entry, `nil` when it is not an `Element`.
  private struct Entry: Decodable {
    let value: Element?
    // Through a single-value container, so a decoder that watches types (the conformance probe) sees
    // each element's.
    init(from decoder: any Decoder) throws { value = try? decoder.singleValueContainer().decode(Element.self) }
  }
}

extension KeyedDecodingContainer {
  /// A lenient field that is absent reads as no value.
  package func decode<Value>(_ type: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
    try decodeIfPresent(type, forKey: key) ?? Lenient()
  }
}

extension KeyedEncodingContainer {
  /// A lenient field without a value is left out.
  package mutating func encode<Value>(_ value: Lenient<Value>, forKey key: Key) throws {
    guard let wrapped = value.wrappedValue else { return }
    try encode(wrapped, forKey: key)
  }
}
