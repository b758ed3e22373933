import Foundation
import SignInKit

/// `mfa enrol sms NUMBER [NAME] | mfa enrol totp [NAME] | mfa remove ID`: Add a second factor
/// (a phone that gets a texted code, or an authenticator app), or remove one.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct SecondFactorCommand: REPLCommand {
  package static let name = "mfa"
  package static let usage = "mfa enrol sms NUMBER [NAME] | mfa enrol totp [NAME] | mfa remove ID"
  package static let summary =
    "Add a second factor (a phone that gets a texted code, or an authenticator app), or remove one (ids in 'whoami')."

  /// What to do.
  package enum Action: Sendable, Equatable {
    case enrolPhone(phoneNumber: String, displayName: String?)
    case enrolApp(displayName: String?)
    case remove(enrollmentID: String)
  }

  package let action: Action
}

extension SecondFactorCommand {
  package init(arguments: [String]) throws(CommandError) {
    let words = arguments.map { $0.lowercased() }
    switch (words.first, words.dropFirst().first, arguments.count) {
    case ("enrol", "sms", 3), ("enroll", "sms", 3): action = .enrolPhone(phoneNumber: arguments[2], displayName: nil)
    case ("enrol", "sms", 4), ("enroll", "sms", 4):
      action = .enrolPhone(phoneNumber: arguments[2], displayName: arguments[3])
    case ("enrol", "totp", 2), ("enroll", "totp", 2): action = .enrolApp(displayName: nil)
    case ("enrol", "totp", 3), ("enroll", "totp", 3): action = .enrolApp(displayName: arguments[2])
    case ("remove", _, 2): action = .remove(enrollmentID: arguments[1])
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    switch arguments.count {
    case 0: ["enrol", "remove"]
    case 1 where arguments[0] == "enrol": ["sms", "totp"]
    default: []
    }
  }

  package func run(in session: isolated REPLSession) async throws {
    switch action {
    case .enrolPhone(let phoneNumber, let displayName):
      let verification = try await session.auth.startPhoneEnrollment(phoneNumber: phoneNumber)
      let code = try await session.textedCode(for: verification)
      let user = try await session.auth.finishPhoneEnrollment(verification, code: code, displayName: displayName)
      await session.say(
        "second factor added: \(user.secondFactors.map(TranscriptFormatter.describe).joined(separator: ", "))")
    case .enrolApp(let displayName):
      try await EnrollTOTPCommand(displayName: displayName).run(in: session)
    case .remove(let enrollmentID):
      try await UnenrollSecondFactorCommand(enrollmentID: enrollmentID).run(in: session)
    }
  }
}
