import Foundation
import SignInKit

/// `totp-enroll [NAME]`: Add an authenticator app as a second factor: shows its secret, then asks for a code.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct EnrollTOTPCommand: REPLCommand {
  package static let name = "totp-enroll"
  package static let usage = "totp-enroll [NAME]"
  package static let summary = "Add an authenticator app as a second factor: shows its secret, then asks for a code."

  package var displayName: String? = nil
}

extension EnrollTOTPCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.count <= 1 else { throw Self.usageError }
    displayName = arguments.first
  }

  package func run(in session: isolated REPLSession) async throws {
    let secret = try await session.auth.startTOTPEnrollment()
    let account = session.auth.currentUser?.email ?? session.auth.currentUser?.uid ?? "account"
    // The person asked to enrol: the secret is theirs to put in their authenticator app.
    await session.say("secret: \(secret.secretKey)", fields: ["secret": secret.secretKey])
    await session.say("uri: \(secret.otpauthURI(accountName: account, issuer: "SignInKit"))")
    let code = try await session.oneTimeCode()
    let user = try await session.auth.finishTOTPEnrollment(secret, code: code, displayName: displayName)
    await session.say(
      "second factor added: \(user.secondFactors.map(TranscriptFormatter.describe).joined(separator: ", "))")
  }
}
