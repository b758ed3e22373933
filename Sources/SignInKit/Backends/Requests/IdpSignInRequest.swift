/// `accounts:signInWithIdp`: exchanges an IdP credential; with `idToken`, links it to that user.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct IdpSignInRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var credential: ProviderCredential
  /// `requestUri`; `http://localhost` for credentials the app already holds.
  public var requestURI: String
  public var idToken: String?

  public init(
    credential: ProviderCredential, requestURI: String = "http://localhost", idToken: String? = nil
  ) {
    self.credential = credential
    self.requestURI = requestURI
    self.idToken = idToken
  }

  public var description: String {
    "IdpSignInRequest(\(credential.providerID), linking: \(idToken != nil))"
  }
  public var customMirror: Mirror { Mirror(self, children: ["credential": credential]) }
}
