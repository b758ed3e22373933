import Foundation
import SignInWire

/// What a wire type's `Codable` conformance reads, found by decoding it from a decoder that
/// answers every question: each field's name and kind, nested bodies' fields, and a sample value
/// with every field set. Nothing here is written twice: the probe reads the types themselves.
struct WireSchema: CustomStringConvertible {
  /// A field's kind as JSON carries it.
  indirect enum Kind: Equatable, CustomStringConvertible {
    case string, bool, number, int64
    /// A proto enum and its names.
    case enumeration([String])
    /// A body's fields, and those it lists as not Google's with the reason.
    case object([String: Kind], unlisted: [String: String])
    /// A map of string keys (`testPhoneNumbers`).
    case map(Kind)
    case array(Kind)

    var description: String {
      switch self {
      case .string: "string"
      case .bool: "bool"
      case .number: "number"
      case .int64: "int64"
      case .enumeration(let names): "enum(\(names.joined(separator: "|")))"
      case .object(let fields, _): "{\(fields.keys.sorted().joined(separator: ","))}"
      case .map(let value): "map<\(value)>"
      case .array(let element): "[\(element)]"
      }
    }
  }

  let fields: [String: Kind]
  var description: String { Kind.object(fields, unlisted: [:]).description }

  /// The schema of `type` and a sample with every field set.
  static func probe<Body: Decodable>(_ type: Body.Type) throws -> (schema: WireSchema, sample: Body) {
    let recorder = Recorder()
    let sample = try Body(from: ProbeDecoder(recorder: recorder, path: []))
    guard case .object(let fields, _)? = recorder.kind(at: []) else {
      return (WireSchema(fields: [:]), sample)
    }
    return (WireSchema(fields: fields), sample)
  }

  /// Every kind recorded, by path; assembled into a tree on demand.
  final class Recorder {
    var kinds: [[String]: Kind] = [:]
    var containers: [[String]: String] = [:]
    var unlisted: [[String]: [String: String]] = [:]

    func record(_ kind: Kind, at path: [String]) {
      if kinds[path] == nil { kinds[path] = kind }
    }

    func kind(at path: [String]) -> Kind? {
      switch containers[path] {
      case "object":
        let children = kinds.keys.filter { $0.count == path.count + 1 && Array($0.prefix(path.count)) == path }
          .map { $0.last! }
        let nested = containers.keys.filter { $0.count == path.count + 1 && Array($0.prefix(path.count)) == path }
          .map { $0.last! }
        var fields: [String: Kind] = [:]
        for name in Set(children + nested) { fields[name] = kind(at: path + [name]) }
        return .object(fields, unlisted: unlisted[path] ?? [:])
      case "map":
        return .map(kind(at: path + ["*"]) ?? .string)
      case "array":
        return .array(kind(at: path + ["[]"]) ?? .string)
      default:
        return kinds[path]
      }
    }
  }
}

/// The decoder behind ``WireSchema/probe(_:)``: every key is present, every value is a sample of
/// the type asked for (`"s"`, `true`, `1`), and every question is recorded.
private struct ProbeDecoder: Decoder {
  let recorder: WireSchema.Recorder
  let path: [String]
  var codingPath: [any CodingKey] { path.map { ProbeKey(stringValue: $0) } }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    if type == ProbeKey.self || String(describing: type).contains("DictionaryCodingKey") {
      recorder.containers[path] = recorder.containers[path] ?? "map"
    } else {
      recorder.containers[path] = "object"
    }
    return KeyedDecodingContainer(Keyed<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    recorder.containers[path] = "array"
    return Unkeyed(decoder: ProbeDecoder(recorder: recorder, path: path + ["[]"]))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

  /// A sample of `type`, recording its kind at this path.
  func sample<T: Decodable>(_ type: T.Type) throws -> T {
    if let enumeration = type as? any WireEnum.Type {
      recorder.record(.enumeration(enumeration.names), at: path)
    }
    if let body = type as? any WireBody.Type {
      recorder.unlisted[path] = body.unlistedFields
    }
    switch type {
    case is String.Type:
      recorder.record(.string, at: path)
      return "s" as! T
    case is Bool.Type:
      recorder.record(.bool, at: path)
      return true as! T
    case is Int.Type, is Int32.Type:
      recorder.record(.number, at: path)
      return (1 as Int) as? T ?? (1 as Int32) as! T
    case is Int64.Type:
      recorder.record(.int64, at: path)
      return (1 as Int64) as! T
    case is Double.Type:
      recorder.record(.number, at: path)
      return 1.0 as! T
    case is UInt64.Type:
      recorder.record(.int64, at: path)
      return (1 as UInt64) as! T
    default:
      return try T(from: self)
    }
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { Key(stringValue: "*").map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try ProbeDecoder(recorder: decoder.recorder, path: decoder.path + [key.stringValue]).sample(type)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      try ProbeDecoder(recorder: decoder.recorder, path: decoder.path + [key.stringValue]).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try ProbeDecoder(recorder: decoder.recorder, path: decoder.path + [key.stringValue]).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder {
      ProbeDecoder(recorder: decoder.recorder, path: decoder.path + [key.stringValue])
    }
  }

  /// One element.
  struct Unkeyed: UnkeyedDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }
    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      currentIndex += 1
      return try decoder.sample(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      currentIndex += 1
      return try decoder.container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      currentIndex += 1
      return try decoder.unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder { decoder }
  }

  struct Single: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.sample(type) }
  }
}

private struct ProbeKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension WireEnum {
  /// Every case's wire name.
  static var names: [String] { allCases.map(\.rawValue) }
}
