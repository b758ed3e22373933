import Foundation

/// A signed-in user's profile. A value: it never changes under you; a newer one arrives on
/// ``Auth/states``.
///
/// Its `description` names the user and never contains a token.
///
/// - Concurrency: `Sendable` value.
public struct User: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The stable user id (Firebase `localId`). Linking an anonymous user keeps it.
  public var uid: String
  public var email: String?
  public var emailVerified: Bool
  public var displayName: String?
  public var photoURL: URL?
  /// The linked sign-in methods; empty for an anonymous user.
  public var providers: [ProviderInfo]
  public var createdAt: Date?
  public var lastSignInAt: Date?
  /// The second factors enrolled on the account (FirebaseAuth's `multiFactor.enrolledFactors`).
  public var secondFactors: [MultiFactorInfo] {
    get { enrolledFactors ?? [] }
    set { enrolledFactors = newValue.isEmpty ? nil : newValue }
  }
  /// ``secondFactors``, stored only when there are some (sessions stored before second factors
  /// existed have none).
  var enrolledFactors: [MultiFactorInfo]?

  public init(
    uid: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
    photoURL: URL? = nil, providers: [ProviderInfo] = [], createdAt: Date? = nil,
    lastSignInAt: Date? = nil, secondFactors: [MultiFactorInfo] = []
  ) {
    self.enrolledFactors = secondFactors.isEmpty ? nil : secondFactors
    self.uid = uid
    self.email = email
    self.emailVerified = emailVerified
    self.displayName = displayName
    self.photoURL = photoURL
    self.providers = providers
    self.createdAt = createdAt
    self.lastSignInAt = lastSignInAt
  }

  /// Whether the session began with ``Auth/signInAnonymously()`` and no credential has been
  /// linked since, as Firebase's `isAnonymous`. A user signed in with a custom token has no
  /// email and no provider either, and is not anonymous.
  public var isAnonymous: Bool { signedInAnonymously ?? hasNoCredential }

  /// How the session began, recorded by ``Auth``; `nil` in sessions stored before it was, which
  /// fall back to ``hasNoCredential``.
  var signedInAnonymously: Bool?

  /// No sign-in method linked and no email.
  var hasNoCredential: Bool { providers.isEmpty && (email ?? "").isEmpty }

  public var description: String {
    if isAnonymous { return "anonymous user \(uid)" }
    return email.map { "\($0) (\(uid))" } ?? uid
  }
}
