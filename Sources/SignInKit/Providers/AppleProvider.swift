import Foundation
import SignInCrypto

/// Sign in with Apple. Each attempt makes a raw nonce of 32 secure random bytes (base64url);
/// Apple gets its SHA-256 hex (it comes back as the identity token's `nonce` claim), and the
/// backend gets the raw value, so a stolen token cannot be replayed. Passing the hashed value
/// as the raw nonce, a common mistake, is refused by the backend.
///
/// Where AuthenticationServices is not available, the app obtains the identity token itself
/// (a web flow, another device) through `authorize`, asking Apple for the hashed nonce it is
/// given; or hands over a token it already has with
/// ``init(identityToken:rawNonce:givenName:familyName:authorizationCode:credentialState:)``.
/// The name Apple shares only on the first sign-in is kept in the new user's profile, and what
/// else Apple returned (the authorization code, its user identifier, the email, the real-user
/// status) comes back in ``SignInResult/additionalUserInfo``.
///
/// Two things the App Store asks of an app with Sign in with Apple are built in:
/// - **Revoking the token when the account is deleted**: keep the sign-in's authorization code
///   and call ``Auth/deleteAccount(revokingAppleAuthorizationCode:)``.
/// - **Signing out when the Apple ID stops authorizing the app**: pass the provider to
///   ``Auth/restorePreviousSignIn(alongWith:)``; the restore asks for the credential state, and
///   a revocation while the app runs ends the session too.
///
/// - Concurrency: actor; ``credential()`` runs `authorize` and honours its cancellation.
public actor AppleProvider: RestorableSignInProvider {
  /// What Apple returned.
  ///
  /// - Concurrency: `Sendable` value; its description never contains the token or the
  ///   authorization code.
  public struct Authorization: Sendable, CustomStringConvertible, CustomReflectable {
    public var identityToken: String
    public var givenName: String?
    public var familyName: String?
    /// The one-time authorization code (valid for five minutes, usable once): what
    /// ``Auth/revokeAppleToken(authorizationCode:)`` needs before an account is deleted.
    public var authorizationCode: String?
    /// Apple's stable identifier of the user for this team's apps (the token's `sub`): what
    /// the credential state is asked for.
    public var userIdentifier: String?
    /// The email Apple shared (the user's own or a private relay address); on the first
    /// sign-in only.
    public var email: String?
    /// Whether Apple thinks a real person signed in; on the first sign-in only.
    public var realUserStatus: RealUserStatus?

    public init(
      identityToken: String, givenName: String? = nil, familyName: String? = nil, authorizationCode: String? = nil,
      userIdentifier: String? = nil, email: String? = nil, realUserStatus: RealUserStatus? = nil
    ) {
      self.identityToken = identityToken
      self.givenName = givenName
      self.familyName = familyName
      self.authorizationCode = authorizationCode
      self.userIdentifier = userIdentifier
      self.email = email
      self.realUserStatus = realUserStatus
    }

    public var description: String { "AppleProvider.Authorization(token and code redacted)" }
    public var customMirror: Mirror {
      Mirror(
        self,
        children: [
          "givenName": givenName as Any, "familyName": familyName as Any, "userIdentifier": userIdentifier as Any,
          "email": email as Any, "realUserStatus": realUserStatus as Any,
        ])
    }
  }

  /// Apple's guess whether a real person signed in (`ASUserDetectionStatus`).
  ///
  /// - Concurrency: `Sendable` value.
  public enum RealUserStatus: Int, Sendable, Equatable, Codable {
    /// Not available on this platform or version.
    case unsupported = 0
    /// Apple could not tell; treat the user as you would any new account.
    case unknown = 1
    /// Very likely a real person.
    case likelyReal = 2
  }

  public nonisolated let id = ProviderID.apple
  private let authorize: @Sendable (_ hashedNonce: String) async throws -> Authorization
  private let fixedRawNonce: String?
  /// Where the credential state comes from; `nil` when nobody can tell.
  public nonisolated let credentialStateSource: (any CredentialStateSource)?

  /// - Parameters:
  ///   - credentialState: asks Apple whether a user's Apple ID credential is still authorized;
  ///     `systemSheet(presentingFrom:)` passes `SystemAppleIDCredentialState` on Apple
  ///     platforms.
  ///   - authorize: asks Apple for an identity token whose `nonce` is the given SHA-256 hex.
  public init(
    credentialState: (any CredentialStateSource)? = nil,
    authorize: @escaping @Sendable (_ hashedNonce: String) async throws -> Authorization
  ) {
    self.authorize = authorize
    self.fixedRawNonce = nil
    self.credentialStateSource = credentialState
  }

  /// An identity token already obtained with `rawNonce` (its SHA-256 hex was sent to Apple).
  public init(
    identityToken: String, rawNonce: String, givenName: String? = nil, familyName: String? = nil,
    authorizationCode: String? = nil, credentialState: (any CredentialStateSource)? = nil
  ) {
    let authorization = Authorization(
      identityToken: identityToken, givenName: givenName, familyName: familyName,
      authorizationCode: authorizationCode)
    self.authorize = { _ in authorization }
    self.fixedRawNonce = rawNonce
    self.credentialStateSource = credentialState
  }

  public func credential() async throws -> ProviderCredential {
    let rawNonce = try fixedRawNonce ?? Self.makeRawNonce()
    let authorization = try await authorize(Self.hashedNonce(rawNonce))
    var credential = ProviderCredential(
      providerID: .apple, idToken: authorization.identityToken, rawNonce: rawNonce,
      givenName: authorization.givenName, familyName: authorization.familyName)
    credential.authorizationCode = authorization.authorizationCode
    credential.providerUserID = authorization.userIdentifier
    credential.email = authorization.email
    credential.realUserStatus = authorization.realUserStatus
    return credential
  }

  /// Apple keeps no session for the app to end.
  public func signOut() async {}

  /// Apple keeps no session to bring back: returns `false`. Passing the provider to
  /// ``Auth/restorePreviousSignIn(alongWith:)`` makes the restore ask for the user's credential
  /// state instead (see ``credentialState(forProviderUserID:)``).
  public func restoreSession() async throws -> Bool { false }

  /// Whether Apple still authorizes the Apple ID whose identifier is `providerUserID`.
  ///
  /// - Returns: `nil` when this provider has no ``credentialStateSource``.
  public func credentialState(forProviderUserID providerUserID: String) async throws -> ProviderCredentialState? {
    try await credentialStateSource?.state(forProviderUserID: providerUserID)
  }

  /// One element each time Apple revokes a credential while the app runs; finished at once
  /// without a ``credentialStateSource``.
  public nonisolated var credentialRevocations: AsyncStream<Void> {
    credentialStateSource?.revocations() ?? AsyncStream { $0.finish() }
  }

  /// 32 secure random bytes, base64url: 43 characters.
  public static func makeRawNonce() throws -> String {
    Base64URL.encode(try Crypto.randomBytes(32))
  }

  /// What Apple is sent: the lowercase hex SHA-256 of the raw nonce.
  public static func hashedNonce(_ rawNonce: String) -> String {
    Crypto.sha256Hex(Array(rawNonce.utf8))
  }
}
