/// What a successful sign-in, sign-up or link returns.
///
/// - Concurrency: `Sendable` value.
public struct SignInResult: Sendable, Equatable {
  public let user: User
  /// `true` when this call created the account.
  public let isNewUser: Bool
  /// The method used.
  public let providerID: ProviderID
  /// What the identity provider said about the user (its profile, Apple's authorization code
  /// and real-user status), for ``Auth/signIn(with:)-(SignInProvider)`` and ``Auth/link(with:)-(SignInProvider)``; `nil` for
  /// email, anonymous and custom-token sign-ins.
  public let additionalUserInfo: AdditionalUserInfo?

  public init(user: User, isNewUser: Bool, providerID: ProviderID, additionalUserInfo: AdditionalUserInfo? = nil) {
    self.user = user
    self.isNewUser = isNewUser
    self.providerID = providerID
    self.additionalUserInfo = additionalUserInfo
  }
}
