import Foundation

/// A JSON body of the Firebase Auth REST API (Identity Toolkit, Secure Token), written once for
/// both sides: ``FirebaseBackend`` encodes the requests and the emulator routes decode them.
///
/// A body's stored properties are its wire fields, named as Firebase's JSON names them
/// (`idToken`, `photoUrl`); its `CodingKeys` list them (and those of the bodies it nests), so the
/// decoder can match the other spellings clients send.
///
/// - Concurrency: `Sendable` values.
package protocol WireBody: Codable, Sendable, Equatable {
  /// The body's fields.
  associatedtype CodingKeys: CodingKey, CaseIterable

  /// The field names of this body and of every body it nests, as Firebase's JSON spells them;
  /// by default the body's own.
  static var fieldNames: [String] { get }
}

extension WireBody {
  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) }

  /// A body nested in a lenient reply field: `nil` when what is there is not one.
  package static func lenient(from container: any SingleValueDecodingContainer) -> Self? {
    try? container.decode(Self.self)
  }

  /// `value`, which the call cannot do without.
  ///
  /// - Throws: ``WireError/missing(field:)`` when it is absent or empty.
  package func required(_ value: String?, _ field: CodingKeys) throws(WireError) -> String {
    guard let value, !value.isEmpty else { throw .missing(field: field.stringValue) }
    return value
  }

  /// This body as the client sends it: keys sorted, slashes unescaped, absent fields left out.
  package func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// Decodes a body as a server does, accepting each field in the spellings Firebase accepts:
  /// its JSON name (`displayName`), the proto field name (`display_name`), and any other casing
  /// of the same words (`photoURL` for `photoUrl`), as the Firebase emulator normalises keys.
  /// Fields this body does not name are ignored, as the emulator ignores them.
  ///
  /// - Throws: ``WireError`` naming the field whose value has the wrong type, or saying the body
  ///   is not a JSON object.
  package static func decoded(from data: Data) throws(WireError) -> Self {
    let canonical = Dictionary(
      fieldNames.map { (WireFieldName.folded($0), $0) }, uniquingKeysWith: { first, _ in first })
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .custom { path in
      let key = path[path.count - 1]
      if key.intValue != nil { return key }
      return WireFieldName(canonical[WireFieldName.folded(key.stringValue)] ?? key.stringValue)
    }
    do {
      return try decoder.decode(Self.self, from: data)
    } catch let DecodingError.typeMismatch(type, context) where !context.codingPath.isEmpty {
      throw .invalidValue(field: WireFieldName.path(context.codingPath), expected: WireFieldName.protoType(of: type))
    } catch let DecodingError.valueNotFound(type, context) where !context.codingPath.isEmpty {
      throw .invalidValue(field: WireFieldName.path(context.codingPath), expected: WireFieldName.protoType(of: type))
    } catch {
      throw .notAnObject
    }
  }
}
