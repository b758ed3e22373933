import Foundation

/// One user as `accounts:lookup` (and `accounts:update`) describe it.
///
/// - Concurrency: `Sendable` value.
public struct AccountInfo: Sendable, Equatable {
  public var localID: String
  public var email: String?
  public var emailVerified: Bool
  public var displayName: String?
  public var photoURL: URL?
  public var disabled: Bool
  public var providers: [ProviderInfo]
  public var createdAt: Date?
  public var lastLoginAt: Date?
  /// The enrolled second factors (`mfaInfo`).
  public var secondFactors: [MultiFactorInfo]
  /// The account's phone number (E.164), proved by SMS or set by an administrator.
  public var phoneNumber: String?
  /// The enrolled passkeys (`passkeyInfo`).
  public var passkeys: [PasskeyInfo]

  public init(
    localID: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
    photoURL: URL? = nil, disabled: Bool = false, providers: [ProviderInfo] = [],
    createdAt: Date? = nil, lastLoginAt: Date? = nil, secondFactors: [MultiFactorInfo] = [],
    phoneNumber: String? = nil, passkeys: [PasskeyInfo] = []
  ) {
    self.passkeys = passkeys
    self.phoneNumber = phoneNumber
    self.secondFactors = secondFactors
    self.localID = localID
    self.email = email
    self.emailVerified = emailVerified
    self.displayName = displayName
    self.photoURL = photoURL
    self.disabled = disabled
    self.providers = providers
    self.createdAt = createdAt
    self.lastLoginAt = lastLoginAt
  }

  /// The `providerUserInfo` list as Identity Toolkit reports it: a `password` entry first when
  /// the account has an email and a password, then the linked identity providers.
  public static func providers(federated: [ProviderInfo], passwordEmail: String?) -> [ProviderInfo] {
    guard let email = passwordEmail else { return federated }
    return [ProviderInfo(providerID: .password, rawID: email, email: email)] + federated
  }

  /// The public ``User`` this account describes. An empty email means none.
  public var user: User {
    User(
      uid: localID, email: email.flatMap { $0.isEmpty ? nil : $0 }, emailVerified: emailVerified,
      displayName: displayName.flatMap { $0.isEmpty ? nil : $0 }, photoURL: photoURL,
      providers: providers, createdAt: createdAt, lastSignInAt: lastLoginAt, secondFactors: secondFactors,
      phoneNumber: phoneNumber.flatMap { $0.isEmpty ? nil : $0 }, passkeys: passkeys)
  }
}
