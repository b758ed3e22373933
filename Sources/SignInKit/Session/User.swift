import Foundation

/// A signed-in user's profile. A value: it never changes under you; a newer one arrives on
/// ``Auth/states``.
///
/// Its `description` names the user and never contains a token.
///
/// Copies share one immutable storage until one of them is changed, so passing a user through
/// the states, events and screens of every published change copies a reference, not the profile.
///
/// - Concurrency: `Sendable` value.
public struct User: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The profile's stored fields; their names are the keys of the stored session's JSON.
  struct Fields: Sendable, Hashable, Codable {
    var uid: String
    var email: String?
    var emailVerified: Bool
    var displayName: String?
    var photoURL: URL?
    var providers: [ProviderInfo]
    var createdAt: Date?
    var lastSignInAt: Date?
    /// Only when there are some (sessions stored before second factors existed have none).
    var enrolledFactors: [MultiFactorInfo]?
    var signedInAnonymously: Bool?
    /// Only when there is one (sessions stored before phone numbers existed have none).
    var phoneNumber: String?
    /// Only when there are some.
    var passkeys: [PasskeyInfo]?
  }

  /// One profile, shared by every copy of the user that has not changed it.
  private final class Storage: Sendable {
    let fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }

  private var storage: Storage

  /// The stable user id (Firebase `localId`). Linking an anonymous user keeps it.
  public var uid: String {
    get { storage.fields.uid }
    set { change { $0.uid = newValue } }
  }
  public var email: String? {
    get { storage.fields.email }
    set { change { $0.email = newValue } }
  }
  public var emailVerified: Bool {
    get { storage.fields.emailVerified }
    set { change { $0.emailVerified = newValue } }
  }
  public var displayName: String? {
    get { storage.fields.displayName }
    set { change { $0.displayName = newValue } }
  }
  public var photoURL: URL? {
    get { storage.fields.photoURL }
    set { change { $0.photoURL = newValue } }
  }
  /// The linked sign-in methods; empty for an anonymous user.
  public var providers: [ProviderInfo] {
    get { storage.fields.providers }
    set { change { $0.providers = newValue } }
  }
  public var createdAt: Date? {
    get { storage.fields.createdAt }
    set { change { $0.createdAt = newValue } }
  }
  public var lastSignInAt: Date? {
    get { storage.fields.lastSignInAt }
    set { change { $0.lastSignInAt = newValue } }
  }
  /// The number the user signs in with by text message, in E.164 form (FirebaseAuth's
  /// `phoneNumber`); `nil` when none is linked. An SMS second factor's number is not this one:
  /// see ``secondFactors``.
  public var phoneNumber: String? {
    get { storage.fields.phoneNumber }
    set { change { $0.phoneNumber = newValue } }
  }
  /// The passkeys enrolled on the account (FirebaseAuth's `enrolledPasskeys`).
  public var passkeys: [PasskeyInfo] {
    get { storage.fields.passkeys ?? [] }
    set { change { $0.passkeys = newValue.isEmpty ? nil : newValue } }
  }
  /// The second factors enrolled on the account (FirebaseAuth's `multiFactor.enrolledFactors`).
  public var secondFactors: [MultiFactorInfo] {
    get { storage.fields.enrolledFactors ?? [] }
    set { change { $0.enrolledFactors = newValue.isEmpty ? nil : newValue } }
  }

  public init(
    uid: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
    photoURL: URL? = nil, providers: [ProviderInfo] = [], createdAt: Date? = nil,
    lastSignInAt: Date? = nil, secondFactors: [MultiFactorInfo] = [], phoneNumber: String? = nil,
    passkeys: [PasskeyInfo] = []
  ) {
    storage = Storage(
      Fields(
        uid: uid, email: email, emailVerified: emailVerified, displayName: displayName,
        photoURL: photoURL, providers: providers, createdAt: createdAt, lastSignInAt: lastSignInAt,
        enrolledFactors: secondFactors.isEmpty ? nil : secondFactors, signedInAnonymously: nil,
        phoneNumber: phoneNumber, passkeys: passkeys.isEmpty ? nil : passkeys))
  }

  public init(from decoder: any Decoder) throws {
    storage = Storage(try Fields(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try storage.fields.encode(to: encoder)
  }

  public static func == (lhs: User, rhs: User) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.fields)
  }

  /// Whether the session began with ``Auth/signInAnonymously()`` and no credential has been
  /// linked since, as Firebase's `isAnonymous`. A user signed in with a custom token has no
  /// email and no provider either, and is not anonymous.
  public var isAnonymous: Bool { signedInAnonymously ?? hasNoCredential }

  /// How the session began, recorded by ``Auth``; `nil` in sessions stored before it was, which
  /// fall back to ``hasNoCredential``.
  var signedInAnonymously: Bool? {
    get { storage.fields.signedInAnonymously }
    set { change { $0.signedInAnonymously = newValue } }
  }

  /// No sign-in method linked, no email, no phone number and no passkey.
  var hasNoCredential: Bool { providers.isEmpty && (email ?? "").isEmpty && phoneNumber == nil && passkeys.isEmpty }

  public var description: String {
    if isAnonymous { return "anonymous user \(uid)" }
    // A phone number is shown masked: a description ends up in logs.
    return (email ?? phoneNumber.map(MultiFactorInfo.masked)).map { "\($0) (\(uid))" } ?? uid
  }

  /// Gives this copy its own storage with `edit` applied; other copies keep theirs.
  private mutating func change(_ edit: (inout Fields) -> Void) {
    var fields = storage.fields
    edit(&fields)
    storage = Storage(fields)
  }
}
