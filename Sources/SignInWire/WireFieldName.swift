/// A field's name on the wire, and how the decoder matches other spellings of it.
///
/// - Concurrency: `Sendable` value.
struct WireFieldName: CodingKey, Sendable {
  let stringValue: String
  var intValue: Int? { nil }

  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { return nil }

  /// The name with case and separators folded away: `photoUrl`, `photoURL` and `photo_url` are
  /// all `photourl`.
  static func folded(_ name: String) -> String {
    String(name.lowercased().filter { $0 != "_" && $0 != "-" })
  }

  /// The proto's name of a field: `grant_type` for `grantType`.
  static func snakeCased(_ name: String) -> String {
    name.reduce(into: "") { result, character in
      if character.isUppercase, !result.isEmpty { result += "_" }
      result += character.lowercased()
    }
  }

  /// A field's path as Firebase's errors print it: `totpVerificationInfo.verificationCode`,
  /// `deleteAttribute[1]`.
  static func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.reduce(into: "") { path, key in
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
  }

  /// The proto type Firebase names in an invalid-value error.
  static func protoType(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "TYPE_STRING"
    case is Bool.Type: "TYPE_BOOL"
    case is Int.Type, is Int64.Type: "TYPE_INT64"
    case is Double.Type: "TYPE_DOUBLE"
    default: "TYPE_MESSAGE"
    }
  }
}
