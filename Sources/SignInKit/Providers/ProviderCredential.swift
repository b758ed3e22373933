import Foundation
import SignInCrypto
import SignInFoundation
import SignInHTTP
import SignInWire

/// What an identity provider handed back: the tokens the backend exchanges for a session.
///
/// Its `description` and mirror name the provider and never contain a token or nonce.
///
/// - Concurrency: `Sendable` value.
public struct ProviderCredential: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var providerID: ProviderID
  /// The IdP's ID token (a JWT), when it issued one.
  public var idToken: String?
  /// The IdP's OAuth access token, when there is no ID token or in addition to it.
  public var accessToken: String?
  /// An OAuth 1.0 provider's token secret, beside its access token (X's).
  public var secret: String?
  /// Google: the one-time code for the app's server, when the provider names a server client ID
  /// (``OpenIDConnectProvider/Configuration/serverClientID``). Not sent to the backend.
  public var serverAuthCode: String?
  /// The raw nonce of the request the ID token answers: for Apple, its SHA-256 hex is the
  /// token's `nonce` claim; for other OpenID issuers, the claim itself.
  public var rawNonce: String?
  /// Apple: the name the user shared, sent only on the first sign-in and not in the token.
  public var givenName: String?
  public var familyName: String?
  /// Apple: the one-time authorization code, for revoking Apple's token when the account is
  /// deleted. Not sent to the backend at sign-in.
  public var authorizationCode: String?
  /// The user's id at the provider, when the provider said it outside the token (Apple's user
  /// identifier).
  public var providerUserID: String?
  /// The email the provider shared outside the token (Apple, on the first sign-in).
  public var email: String?
  /// Apple: whether a real person signed in.
  public var realUserStatus: AppleProvider.RealUserStatus?
  /// The backend's token for an identity it verified already (`pendingToken`), in the
  /// credential a conflict hands back (``AuthError/updatedCredential``): signing in with it
  /// does not send the IdP's token a second time, which Firebase refuses for Apple
  /// ("Duplicate credential received").
  public var pendingToken: String?
  /// Where a sign-in through Firebase's hosted handler finished (FirebaseAuth's
  /// `OAuthResponseURLString`): the handler's URL whose query carries the provider's answer. The
  /// backend reads it as `requestUri`; ``OAuthProvider`` fills it in.
  public var responseURL: String?
  /// The hosted sign-in's session id, whose SHA-256 the handler URL carried (`sessionId`).
  public var sessionID: String?
  /// The Identity Platform tenant a hosted sign-in was for; `Auth` refuses the credential when
  /// its backend serves another.
  public var tenantID: String?
  /// A SAML provider's response, as a hosted handler's answer carries it (`SAMLResponse`).
  package var samlResponse: String?

  /// A credential that is only a hosted handler's answer: `responseURL` and the session id.
  public static func hosted(
    _ providerID: ProviderID, responseURL: String, sessionID: String?, tenantID: String? = nil
  ) -> ProviderCredential {
    var credential = ProviderCredential(providerID: providerID)
    credential.responseURL = responseURL
    credential.sessionID = sessionID
    credential.tenantID = tenantID
    return credential
  }

  public init(
    providerID: ProviderID, idToken: String? = nil, accessToken: String? = nil,
    rawNonce: String? = nil, givenName: String? = nil, familyName: String? = nil
  ) {
    self.providerID = providerID
    self.idToken = idToken
    self.accessToken = accessToken
    self.rawNonce = rawNonce
    self.givenName = givenName
    self.familyName = familyName
  }

  /// A Google credential from tokens the app already has, for an app that keeps GoogleSignIn
  /// (`GIDSignIn`) and hands its result over: `GIDGoogleUser.idToken.tokenString` and
  /// `accessToken.tokenString`, as FirebaseAuth's `GoogleAuthProvider.credential(withIDToken:accessToken:)`
  /// takes them.
  ///
  /// ```swift
  /// let result = try await GIDSignIn.sharedInstance.signIn(withPresenting: viewController)
  /// let credential = ProviderCredential.google(
  ///   idToken: result.user.idToken!.tokenString, accessToken: result.user.accessToken.tokenString)
  /// try await auth.signIn(with: credential)
  /// ```
  public static func google(idToken: String, accessToken: String? = nil) -> ProviderCredential {
    ProviderCredential(providerID: .google, idToken: idToken, accessToken: accessToken)
  }

  /// A credential from an OpenID Connect ID token the app already has, for any provider the
  /// backend trusts (`oidc.<name>`, `microsoft.com`, `apple.com`…). When the app asked the issuer
  /// for the token with a nonce, pass the raw nonce: the backend then checks the token carries it
  /// (for `apple.com`, its SHA-256 hex), so a token issued to another request is refused.
  /// Apple's tokens always need it.
  public static func openID(
    _ providerID: ProviderID, idToken: String, rawNonce: String? = nil, accessToken: String? = nil
  ) -> ProviderCredential {
    ProviderCredential(providerID: providerID, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce)
  }

  /// The shared name as one display name (`"Ada Lovelace"`), when there is one.
  public var fullName: String? {
    let parts = [givenName, familyName].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  /// The form-encoded `postBody` of `accounts:signInWithIdp`, with every value percent-encoded.
  public var postBody: String {
    var body = IdpPostBody()
    body.idToken = idToken
    body.accessToken = accessToken
    body.oauthTokenSecret = secret
    body.providerId = providerID.rawValue
    body.nonce = rawNonce
    body.samlResponse = samlResponse
    // As Apple's native SDKs send it: {"name":{"firstName":…,"lastName":…}}.
    if fullName != nil { body.user = IdpPostBody.AppleUser(firstName: givenName, lastName: familyName) }
    return body.encoded
  }

  /// The credential a `postBody` form carries, as the emulator reads it.
  package init(postBody: IdpPostBody) {
    self.init(
      providerID: ProviderID(rawValue: postBody.providerId ?? ""), idToken: postBody.idToken,
      accessToken: postBody.accessToken, rawNonce: postBody.nonce)
    secret = postBody.oauthTokenSecret
    givenName = postBody.user?.name?.firstName
    familyName = postBody.user?.name?.lastName
    samlResponse = postBody.samlResponse
  }

  /// This credential with a hosted handler's answer read into its fields (the provider's tokens,
  /// a SAML response), as Firebase reads `requestUri` and `postBody` together; itself when it
  /// has no ``responseURL``.
  package var resolvingResponseURL: ProviderCredential {
    guard let responseURL else { return self }
    let form = IdpPostBody(requestURI: responseURL, postBody: postBody)
    var resolved = ProviderCredential(postBody: form)
    resolved.providerID = providerID
    resolved.pendingToken = pendingToken
    resolved.tenantID = tenantID
    return resolved
  }

  public var description: String { "ProviderCredential(\(providerID), tokens redacted)" }
  public var customMirror: Mirror { Mirror(self, children: ["providerID": providerID]) }
}
