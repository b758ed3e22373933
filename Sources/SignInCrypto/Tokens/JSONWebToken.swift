import Foundation
import SignInFoundation

/// A compact-serialized JWT (RFC 7519): its header, claims and signature, decoded but not
/// verified. Use ``JWTVerifier`` before trusting any claim.
///
/// - Concurrency: `Sendable` value. Its `description` shows the header and claims, never the
///   signature or the token text.
package struct JSONWebToken: Sendable, Equatable, CustomStringConvertible {
  package let header: [String: JSONValue]
  package let claims: [String: JSONValue]
  package let signature: [UInt8]
  /// `BASE64URL(header) "." BASE64URL(claims)`: the bytes the signature covers.
  package let signingInput: String

  /// Decodes `token`.
  /// - Throws: ``TokenError/malformed(_:)`` when it is not three base64url JSON parts.
  package init(decoding token: String) throws {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw TokenError.malformed("a JWT has 3 dot-separated parts; this has \(parts.count)")
    }
    func object(_ part: Substring, _ name: String) throws -> [String: JSONValue] {
      guard let bytes = Base64URL.decode(String(part)),
        let value = try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
      else { throw TokenError.malformed("the \(name) is not base64url-encoded JSON") }
      return value
    }
    header = try object(parts[0], "header")
    claims = try object(parts[1], "claims")
    guard let signature = Base64URL.decode(String(parts[2])) else {
      throw TokenError.malformed("the signature is not base64url")
    }
    self.signature = signature
    signingInput = "\(parts[0]).\(parts[1])"
  }

  /// Encodes and RS256-signs `claims`, with `kid` in the header when given.
  package static func signed(
    claims: [String: JSONValue], key: RSAPrivateKey, kid: String?
  ) throws -> String {
    var header: [String: JSONValue] = ["alg": .string("RS256"), "typ": .string("JWT")]
    if let kid { header["kid"] = .string(kid) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let input =
      Base64URL.encode(try encoder.encode(header)) + "."
      + Base64URL.encode(try encoder.encode(claims))
    return input + "." + Base64URL.encode(try key.signRS256(Array(input.utf8)))
  }

  package var algorithm: String? { header["alg"]?.string }
  package var keyID: String? { header["kid"]?.string }
  package var issuer: String? { claims["iss"]?.string }
  package var subject: String? { claims["sub"]?.string }
  /// `aud` as a list, whether the token carries a string or an array.
  package var audiences: [String] {
    switch claims["aud"] {
    case .string(let audience)?: [audience]
    case .array(let values)?: values.compactMap(\.string)
    default: []
    }
  }
  package var expiresAt: Date? { claims["exp"]?.number.map(Date.init(timeIntervalSince1970:)) }
  package var issuedAt: Date? { claims["iat"]?.number.map(Date.init(timeIntervalSince1970:)) }

  package var description: String { "JWT(header: \(header), claims: \(claims))" }
}
