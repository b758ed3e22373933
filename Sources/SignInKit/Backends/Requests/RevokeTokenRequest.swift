import SignInWire

/// Identity Toolkit v2 `accounts:revokeToken`: revokes the identity provider's token for the
/// user of an ID token at that provider. Only Sign in with Apple supports it, with the
/// authorization code of a sign-in (App Store Review Guideline 5.1.1(v) asks apps that offer
/// account deletion to revoke it).
///
/// - Concurrency: `Sendable` value; its description never contains the code or the ID token.
public struct RevokeTokenRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// What ``token`` is (`tokenType` on the wire).
  ///
  /// - Concurrency: `Sendable` value.
  public enum TokenType: Sendable, Equatable {
    /// An authorization code, which the backend exchanges with the provider for the token it
    /// then revokes.
    case authorizationCode
    case refreshToken
    case accessToken

    /// The wire name: `CODE`, `REFRESH_TOKEN`, `ACCESS_TOKEN`.
    public var rawValue: String { wire.rawValue }

    /// The wire value.
    package var wire: RevokeTokenType {
      switch self {
      case .authorizationCode: .code
      case .refreshToken: .refreshToken
      case .accessToken: .accessToken
      }
    }

    /// The token type the wire value names.
    package init(_ wire: RevokeTokenType) {
      switch wire {
      case .code: self = .authorizationCode
      case .refreshToken: self = .refreshToken
      case .accessToken: self = .accessToken
      }
    }
  }

  /// The provider whose token is revoked (`apple.com`).
  public var providerID: ProviderID
  public var tokenType: TokenType
  /// The code or token to revoke.
  public var token: String
  /// The signed-in user's ID token.
  public var idToken: String

  public init(providerID: ProviderID, tokenType: TokenType, token: String, idToken: String) {
    self.providerID = providerID
    self.tokenType = tokenType
    self.token = token
    self.idToken = idToken
  }

  /// Revoking Apple's token with the authorization code of a Sign in with Apple.
  public static func apple(authorizationCode: String, idToken: String) -> RevokeTokenRequest {
    RevokeTokenRequest(providerID: .apple, tokenType: .authorizationCode, token: authorizationCode, idToken: idToken)
  }

  public var description: String { "RevokeTokenRequest(\(providerID), \(tokenType.rawValue), tokens redacted)" }
  public var customMirror: Mirror { Mirror(self, children: ["providerID": providerID, "tokenType": tokenType]) }
}
