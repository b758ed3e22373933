import Foundation

/// A signed-in session as it is kept between launches: the user and their tokens.
///
/// Its `description` and mirror never contain a token.
///
/// - Concurrency: `Sendable` value.
public struct StoredSession: Sendable, Equatable, Codable, CustomStringConvertible,
  CustomReflectable
{
  /// The layout version this build writes; a file with another version is reported, not guessed.
  public static let currentFormatVersion = 1

  public var formatVersion: Int
  public var user: User
  public var idToken: String
  public var refreshToken: String
  /// When the ID token expires: reply time + `expiresIn`, as the iOS SDK computes it.
  public var expiresAt: Date
  /// How the user last signed in (`password`, `anonymous`, `google.com`, …).
  public var signInProvider: ProviderID

  public init(
    user: User, idToken: String, refreshToken: String, expiresAt: Date, signInProvider: ProviderID
  ) {
    self.formatVersion = Self.currentFormatVersion
    self.user = user
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.signInProvider = signInProvider
  }

  public var description: String {
    "StoredSession(\(user), via \(signInProvider), expiresAt: \(expiresAt), tokens redacted)"
  }
  public var customMirror: Mirror {
    Mirror(self, children: ["user": user, "expiresAt": expiresAt, "signInProvider": signInProvider])
  }
}

extension StoredSession {
  /// A session for tokens received at `date`. The ID token expires `expiresIn` after the reply
  /// arrived, as the iOS SDK computes it, not at the JWT's `exp`.
  init(user: User, tokens: IssuedTokens, receivedAt date: Date, signInProvider: ProviderID) {
    self.init(
      user: user, idToken: tokens.idToken, refreshToken: tokens.refreshToken,
      expiresAt: date.addingTimeInterval(tokens.expiresIn.seconds), signInProvider: signInProvider)
  }

  /// Replaces the tokens with newly issued ones received at `date`.
  mutating func replaceTokens(with tokens: IssuedTokens, receivedAt date: Date) {
    idToken = tokens.idToken
    refreshToken = tokens.refreshToken
    expiresAt = date.addingTimeInterval(tokens.expiresIn.seconds)
  }
}
