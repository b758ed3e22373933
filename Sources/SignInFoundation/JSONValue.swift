import Foundation

/// Any JSON value: JWT headers and claims whose shape varies by issuer, and the free-form parts
/// of replies and stored files.
///
/// - Concurrency: `Sendable` value.
package enum JSONValue: Sendable, Hashable, Codable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case array([JSONValue])
  case object([String: JSONValue])
  case null

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .number(let value):
      if value.rounded() == value, abs(value) < 1e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .bool(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    case .null: try container.encodeNil()
    }
  }

  package var string: String? { if case .string(let value) = self { value } else { nil } }
  package var number: Double? { if case .number(let value) = self { value } else { nil } }
  package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
  package var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
  package var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
}

extension JSONValue {
  /// This value alone as JSON text (sorted keys).
  package var jsonText: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }
}
