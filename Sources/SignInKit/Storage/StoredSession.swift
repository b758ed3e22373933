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
  /// How many times the store's session has been written, counting this write: each write
  /// (a sign-in, a refresh, a profile change, in any process) stores one more than the session it
  /// replaces. Of two sessions of one user, the higher generation is the newer, so a process that
  /// holds an older one never writes it over a newer one. Sessions stored before it was kept read
  /// as 0.
  public var generation: Int

  public init(
    user: User, idToken: String, refreshToken: String, expiresAt: Date, signInProvider: ProviderID,
    generation: Int = 1
  ) {
    self.formatVersion = Self.currentFormatVersion
    self.generation = generation
    self.user = user
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.signInProvider = signInProvider
  }

  private enum CodingKeys: String, CodingKey {
    case formatVersion, user, idToken, refreshToken, expiresAt, signInProvider, generation
  }

  /// Reads a session; one stored before ``generation`` was kept has generation 0, older than any
  /// written since.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    formatVersion = try container.decode(Int.self, forKey: .formatVersion)
    user = try container.decode(User.self, forKey: .user)
    idToken = try container.decode(String.self, forKey: .idToken)
    refreshToken = try container.decode(String.self, forKey: .refreshToken)
    expiresAt = try container.decode(Date.self, forKey: .expiresAt)
    signInProvider = try container.decode(ProviderID.self, forKey: .signInProvider)
    generation = try container.decodeIfPresent(Int.self, forKey: .generation) ?? 0
  }

  public var description: String {
    "StoredSession(\(user), via \(signInProvider), expiresAt: \(expiresAt), generation \(generation), tokens redacted)"
  }
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["user": user, "expiresAt": expiresAt, "signInProvider": signInProvider, "generation": generation])
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
