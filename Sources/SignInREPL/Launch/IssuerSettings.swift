/// A real OpenID issuer and this app's client there.
///
/// - Concurrency: `Sendable` value.
package struct IssuerSettings: Sendable, Equatable {
  package var issuer: String
  package var clientID: String
  package var clientSecret: String?

  package init(issuer: String, clientID: String, clientSecret: String? = nil) {
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
  }
}
