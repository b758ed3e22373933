/// The reply of `accounts:sendOobCode`: the address the code went to.
///
/// - Concurrency: `Sendable` value.
public struct OobCodeResponse: Sendable, Equatable {
  public var email: String?

  public init(email: String?) { self.email = email }
}
