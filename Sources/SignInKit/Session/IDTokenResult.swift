import Foundation
import SignInCrypto

/// An ID token and what it says, as FirebaseAuth's `getIDTokenResult` gives it: when it was
/// issued and expires, when the user last signed in, how, and every claim, your custom claims
/// included.
///
/// The claims are read from the token as ``Auth`` holds it, not verified: use them to shape the
/// interface (show the admin menu), never to authorize. Your server verifies the token itself.
/// The `description` never contains the token.
///
/// - Concurrency: `Sendable` value.
public struct IDTokenResult: Sendable, Hashable, CustomStringConvertible {
  /// The ID token, to send to your server.
  public let token: String
  public let expirationDate: Date
  public let issuedAt: Date
  /// When the user last signed in (a refresh does not move it).
  public let authTime: Date?
  /// How the session signed in: ``ProviderID/password``, ``ProviderID/google``,
  /// ``ProviderID/custom``, …
  public let signInProvider: ProviderID?
  /// The Identity Platform tenant the user belongs to (`firebase.tenant`); `nil` for the
  /// project's own users.
  public let tenantID: String?
  /// Every claim of the token: the registered ones (`iss`, `sub`, `exp`…), Firebase's, and custom
  /// claims set by an administrator or carried by a custom token.
  public let claims: [String: ClaimValue]

  /// Reads `token`'s claims.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` when the token is not a JWT with `iat` and `exp`.
  public init(token: String) throws {
    let jwt: JSONWebToken
    do {
      jwt = try JSONWebToken(decoding: token)
    } catch {
      throw AuthError(.invalidResponse, "The ID token is not a JWT, so its claims cannot be read; report this.")
    }
    guard let issuedAt = jwt.issuedAt, let expiresAt = jwt.expiresAt else {
      throw AuthError(.invalidResponse, "The ID token has no iat or exp claim; report this.")
    }
    self.token = token
    self.issuedAt = issuedAt
    self.expirationDate = expiresAt
    self.authTime = jwt.claims["auth_time"]?.number.map(Date.init(timeIntervalSince1970:))
    self.signInProvider = jwt.claims["firebase"]?.object?["sign_in_provider"]?.string.map(ProviderID.init(rawValue:))
    self.tenantID = jwt.claims["firebase"]?.object?["tenant"]?.string
    self.claims = jwt.claims.mapValues(ClaimValue.init)
  }

  public var description: String {
    "IDTokenResult(via \(signInProvider?.rawValue ?? "unknown"), issued \(issuedAt), expires \(expirationDate), "
      + "\(claims.count) claims, token redacted)"
  }
}
