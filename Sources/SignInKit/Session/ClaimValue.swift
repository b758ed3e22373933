import Foundation
import SignInCrypto
import SignInFoundation

/// One claim of an ID token: a JSON value, as the token carries it.
///
/// ```swift
/// if case .bool(true) = result.claims["admin"] { showAdminTools() }
/// let level = result.claims["level"]?.number
/// ```
///
/// - Concurrency: `Sendable` value.
public enum ClaimValue: Sendable, Hashable, CustomStringConvertible {
  case string(String)
  case number(Double)
  case bool(Bool)
  case array([ClaimValue])
  case object([String: ClaimValue])
  case null

  public var string: String? { if case .string(let value) = self { value } else { nil } }
  public var number: Double? { if case .number(let value) = self { value } else { nil } }
  public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
  public var array: [ClaimValue]? { if case .array(let value) = self { value } else { nil } }
  public var object: [String: ClaimValue]? { if case .object(let value) = self { value } else { nil } }

  /// The value as JSON text.
  public var description: String {
    switch self {
    case .string(let value): JSONValue.string(value).jsonText
    case .number(let value): JSONValue.number(value).jsonText
    case .bool(let value): value ? "true" : "false"
    case .null: "null"
    case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
    case .object(let fields):
      "{"
        + fields.keys.sorted().map { JSONValue.string($0).jsonText + ":" + fields[$0]!.description }.joined(
          separator: ",") + "}"
    }
  }

  init(_ value: JSONValue) {
    switch value {
    case .string(let text): self = .string(text)
    case .number(let number): self = .number(number)
    case .bool(let flag): self = .bool(flag)
    case .array(let values): self = .array(values.map(ClaimValue.init))
    case .object(let fields): self = .object(fields.mapValues(ClaimValue.init))
    case .null: self = .null
    }
  }
}
