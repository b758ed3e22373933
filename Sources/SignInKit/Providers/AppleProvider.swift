import Foundation
import SignInCrypto

/// Sign in with Apple. Each attempt makes a raw nonce of 32 secure random bytes (base64url);
/// Apple gets its SHA-256 hex (it comes back as the identity token's `nonce` claim), and the
/// backend gets the raw value, so a stolen token cannot be replayed. Passing the hashed value
/// as the raw nonce, a common mistake, is refused by the backend.
///
/// Where AuthenticationServices is not available, the app obtains the identity token itself
/// (a web flow, another device) through `authorize`, asking Apple for the hashed nonce it is
/// given; or hands over a token it already has with ``init(identityToken:rawNonce:givenName:familyName:)``.
/// The name Apple shares only on the first sign-in is kept in the new user's profile.
///
/// - Concurrency: actor; ``credential()`` runs `authorize` and honours its cancellation.
public actor AppleProvider: SignInProvider {
  /// What Apple returned.
  ///
  /// - Concurrency: `Sendable` value; its description never contains the token.
  public struct Authorization: Sendable, CustomStringConvertible, CustomReflectable {
    public var identityToken: String
    public var givenName: String?
    public var familyName: String?

    public init(identityToken: String, givenName: String? = nil, familyName: String? = nil) {
      self.identityToken = identityToken
      self.givenName = givenName
      self.familyName = familyName
    }

    public var description: String { "AppleProvider.Authorization(token redacted)" }
    public var customMirror: Mirror {
      Mirror(self, children: ["givenName": givenName as Any, "familyName": familyName as Any])
    }
  }

  public nonisolated let id = ProviderID.apple
  private let authorize: @Sendable (_ hashedNonce: String) async throws -> Authorization
  private let fixedRawNonce: String?

  /// - Parameter authorize: asks Apple for an identity token whose `nonce` is the given
  ///   SHA-256 hex.
  public init(authorize: @escaping @Sendable (_ hashedNonce: String) async throws -> Authorization) {
    self.authorize = authorize
    self.fixedRawNonce = nil
  }

  /// An identity token already obtained with `rawNonce` (its SHA-256 hex was sent to Apple).
  public init(identityToken: String, rawNonce: String, givenName: String? = nil, familyName: String? = nil) {
    let authorization = Authorization(identityToken: identityToken, givenName: givenName, familyName: familyName)
    self.authorize = { _ in authorization }
    self.fixedRawNonce = rawNonce
  }

  public func credential() async throws -> ProviderCredential {
    let rawNonce = try fixedRawNonce ?? Self.makeRawNonce()
    let authorization = try await authorize(Self.hashedNonce(rawNonce))
    return ProviderCredential(
      providerID: .apple, idToken: authorization.identityToken, rawNonce: rawNonce,
      givenName: authorization.givenName, familyName: authorization.familyName)
  }

  /// Apple keeps no session for the app to end.
  public func signOut() async {}

  /// 32 secure random bytes, base64url: 43 characters.
  public static func makeRawNonce() throws -> String {
    Base64URL.encode(try Crypto.randomBytes(32))
  }

  /// What Apple is sent: the lowercase hex SHA-256 of the raw nonce.
  public static func hashedNonce(_ rawNonce: String) -> String {
    Crypto.sha256Hex(Array(rawNonce.utf8))
  }
}
