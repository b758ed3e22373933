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
  /// Apple: the raw nonce whose SHA-256 hex is the token's `nonce` claim.
  public var rawNonce: String?

  public init(
    providerID: ProviderID, idToken: String? = nil, accessToken: String? = nil,
    rawNonce: String? = nil
  ) {
    self.providerID = providerID
    self.idToken = idToken
    self.accessToken = accessToken
    self.rawNonce = rawNonce
  }

  /// The form-encoded `postBody` of `accounts:signInWithIdp`, with every value percent-encoded.
  public var postBody: String {
    var fields: [(String, String)] = []
    if let idToken { fields.append(("id_token", idToken)) }
    if let accessToken { fields.append(("access_token", accessToken)) }
    fields.append(("providerId", providerID.rawValue))
    if let rawNonce { fields.append(("nonce", rawNonce)) }
    return FormEncoding.encode(fields)
  }

  public var description: String { "ProviderCredential(\(providerID), tokens redacted)" }
  public var customMirror: Mirror { Mirror(self, children: ["providerID": providerID]) }
}
