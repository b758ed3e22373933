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

  /// The fields that travel in the URL's query instead of the body (`updateMask`, `pageSize`);
  /// by default none.
  static var queryKeys: [CodingKeys] { get }

  /// The fields that Google's discovery document does not list for the calls that use this body,
  /// each with why it is sent or read anyway; by default none.
  static var unlistedFields: [String: String] { get }
}

/// A body that may name the tenant it is for (`tenantId`), as a tenant's client sends it.
package protocol TenantNaming {
  var tenantId: String? { get set }
}

extension WireBody {
  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) }
  package static var queryKeys: [CodingKeys] { [] }
  package static var unlistedFields: [String: String] { [:] }

  /// Why `returnSecureToken` is sent where the discovery document does not list it.
  package static var returnSecureTokenReason: String {
    "FirebaseAuth's SDKs send it on every sign-in call, and Firebase accepts it; tokens come back either way"
  }

  /// A body nested in a lenient reply field: `nil` when what is there is not one.
  package static func lenient(from container: any SingleValueDecodingContainer) -> Self? {
    try? container.decode(Self.self)
  }

  /// `value`, which the call cannot do without.
  ///
  /// - Throws: a ``FirebaseFailure`` with `missing` (`MISSING_ID_TOKEN`) when it is absent or
  ///   empty.
  package func required<Value>(_ value: Value?, _ missing: FirebaseErrorCode) throws(FirebaseFailure) -> Value {
    guard let value, (value as? String)?.isEmpty != true else { throw FirebaseFailure(missing) }
    return value
  }

  /// This body as the client sends it: keys sorted, slashes unescaped, absent fields left out,
  /// and without its ``queryKeys`` (``queryItems()``).
  package func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(self)
    guard !Self.queryKeys.isEmpty, var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return data
    }
    for key in Self.queryKeys { object[key.stringValue] = nil }
    return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
  }

  /// This body as a form (`application/x-www-form-urlencoded`), under the proto's field names
  /// (`grant_type`), in the order of its fields, absent ones left out.
  package func formEncoded() throws -> Data {
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: Any] ?? [:]
    let fields = CodingKeys.allCases.compactMap { key -> (String, String)? in
      object[key.stringValue].map { (WireFieldName.snakeCased(key.stringValue), $0 as? String ?? "\($0)") }
    }
    return Data(FormEncoding.encode(fields).utf8)
  }

  /// Decodes a form as a server does, matching field names as ``decoded(from:)`` does; every
  /// value is a string.
  package static func decoded(form data: Data) throws(FirebaseFailure) -> Self {
    var object: [String: String] = [:]
    for (name, value) in FormEncoding.decode(String(decoding: data, as: UTF8.self)) where object[name] == nil {
      object[name] = value
    }
    guard let json = try? JSONSerialization.data(withJSONObject: object) else { throw .notAnObject }
    return try decoded(from: json)
  }

  /// The ``queryKeys`` this body has values for, as the URL's query carries them.
  package func queryItems() throws -> [(name: String, value: String)] {
    guard !Self.queryKeys.isEmpty else { return [] }
    let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(self)) as? [String: Any] ?? [:]
    return Self.queryKeys.compactMap { key in
      guard let value = object[key.stringValue] else { return nil }
      return (key.stringValue, value as? String ?? "\(value)")
    }
  }

  /// Decodes a request as a server does (``decoded(from:)``), its ``queryKeys`` read from
  /// `query` (the URL's query) and the rest from `data` (empty for a `GET`).
  package static func decoded(from data: Data, query: [String: String]) throws(FirebaseFailure) -> Self {
    let present = queryKeys.compactMap { key in query[key.stringValue].map { (key.stringValue, $0) } }
    guard !present.isEmpty else { return try decoded(from: data.isEmpty ? Data("{}".utf8) : data) }
    var object: [String: Any] = [:]
    if !data.isEmpty {
      guard let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { throw .notAnObject }
      object = fields
    }
    for (name, value) in present { object[name] = value }
    guard let merged = try? JSONSerialization.data(withJSONObject: object) else { throw .notAnObject }
    return try decoded(from: merged)
  }

  /// Decodes a body as a server does, accepting each field in the spellings Firebase accepts:
  /// its JSON name (`displayName`), the proto field name (`display_name`), and any other casing
  /// of the same words (`photoURL` for `photoUrl`), as the Firebase emulator normalises keys.
  /// Fields this body does not name are ignored, as the emulator ignores them.
  ///
  /// - Throws: a ``FirebaseFailure`` (`INVALID_ARGUMENT`) naming the field whose value has the
  ///   wrong type, or saying the body is not a JSON object.
  package static func decoded(from data: Data) throws(FirebaseFailure) -> Self {
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
    } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
      // A proto enum's value that is not one of its names or numbers.
      throw .invalidValue(
        field: WireFieldName.path(context.codingPath), expected: "TYPE_ENUM: \(context.debugDescription)")
    } catch let failure as FirebaseFailure {
      throw failure
    } catch {
      throw .notAnObject
    }
  }
}
