/// What a successful sign-in, sign-up or link returns.
///
/// - Concurrency: `Sendable` value.
public struct SignInResult: Sendable, Equatable {
  public let user: User
  /// `true` when this call created the account.
  public let isNewUser: Bool
  /// The method used.
  public let providerID: ProviderID

  public init(user: User, isNewUser: Bool, providerID: ProviderID) {
    self.user = user
    self.isNewUser = isNewUser
    self.providerID = providerID
  }
}
