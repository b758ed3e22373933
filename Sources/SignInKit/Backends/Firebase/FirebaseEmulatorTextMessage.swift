import Foundation

/// One code the Auth emulator would have texted, from its list of text messages.
///
/// The code is a secret only in name: the emulator shows it so a test or a developer can type
/// it. ``description`` still leaves it out, as for any code.
///
/// - Concurrency: `Sendable` value.
package struct FirebaseEmulatorTextMessage: Sendable, Equatable, CustomStringConvertible {
  /// Where it went, in E.164 form.
  package var phoneNumber: String
  /// The verification it answers (``PhoneVerification/verificationID``).
  package var verificationID: String
  /// The six digits.
  package var code: String

  package init(phoneNumber: String, verificationID: String, code: String) {
    self.phoneNumber = phoneNumber
    self.verificationID = verificationID
    self.code = code
  }

  package var description: String { "text message to \(phoneNumber)" }
}
