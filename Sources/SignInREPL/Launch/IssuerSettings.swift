/// A real OpenID issuer and this app's client there.
///
/// - Concurrency: `Sendable` value.
public struct IssuerSettings: Sendable, Equatable {
  public var issuer: String
  public var clientID: String
  public var clientSecret: String?

  public init(issuer: String, clientID: String, clientSecret: String? = nil) {
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
  }
}
