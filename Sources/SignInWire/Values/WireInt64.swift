/// An int64 as Google's JSON APIs carry one: a decimal string (what they write), or a JSON
/// number with no fraction (what the Admin SDKs often send). Anything else, `1e300`, `"nan"` or
/// `2.5`, is refused while the body is read, naming the field, so nothing downstream converts a
/// value that would trap.
///
/// - Concurrency: `Sendable` value.
package struct WireInt64: Codable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
  package var value: Int64

  package init(_ value: Int64) { self.value = value }
  package init(integerLiteral value: Int64) { self.value = value }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Int64.self) {
      value = number
      return
    }
    let text = try container.decode(String.self)
    let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
    guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let number = Int64(text) else {
      throw DecodingError.typeMismatch(
        Int64.self, .init(codingPath: decoder.codingPath, debugDescription: "not a whole number"))
    }
    value = number
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(String(value))
  }

  package var description: String { String(value) }
}
