import Foundation
import SignInCrypto

extension JSONWebKeySet {
  /// The key set an issuer publishes at `jwksURI`.
  ///
  /// - Throws: ``AuthError/Code/unavailable`` naming the issuer and URL when the reply is not a
  ///   200; ``TokenError/malformed(_:)`` when it is not a JWK Set; transport errors.
  package static func fetch(from jwksURI: URL, of issuer: String, transport: any HTTPTransport) async throws
    -> JSONWebKeySet
  {
    let response = try await transport.send(HTTPRequest(method: "GET", url: jwksURI))
    guard response.status == 200 else {
      throw AuthError(
        .unavailable, "The keys of \(issuer) could not be fetched from \(jwksURI) (HTTP \(response.status)).")
    }
    return try JSONWebKeySet(json: response.body)
  }
}
