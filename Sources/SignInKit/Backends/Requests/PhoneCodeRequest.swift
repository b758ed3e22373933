/// `accounts:sendVerificationCode`: texts a code to a phone number.
///
/// - Concurrency: `Sendable` value.
public struct PhoneCodeRequest: Sendable, Equatable, CustomStringConvertible {
  /// The number, in E.164 form (`+15555550100`).
  public var phoneNumber: String

  public init(phoneNumber: String) {
    self.phoneNumber = phoneNumber
  }

  public var description: String { "PhoneCodeRequest(\(phoneNumber))" }
}
