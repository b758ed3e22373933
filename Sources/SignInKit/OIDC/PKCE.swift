import SignInCrypto

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: a one-time verifier kept by
/// the client, and its challenge sent with the authorization request.
///
/// - Concurrency: `Sendable` value; its description never shows the verifier.
public struct PKCE: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// 43 characters of base64url from 32 secure random bytes (RFC 7636 §4.1).
  public let verifier: String
  /// `BASE64URL(SHA256(verifier))`.
  public var challenge: String { Crypto.pkceChallenge(verifier: verifier) }
  public static let method = "S256"

  /// A fresh verifier.
  public static func generate() throws -> PKCE {
    PKCE(verifier: Base64URL.encode(try Crypto.randomBytes(32)))
  }

  public init(verifier: String) { self.verifier = verifier }

  public var description: String { "PKCE(S256, verifier redacted)" }
  public var customMirror: Mirror { Mirror(self, children: ["method": Self.method]) }
}
