import Foundation
import SignInKit

/// `totp-unenroll ID`: Remove a second factor (ids in 'whoami').
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct UnenrollSecondFactorCommand: REPLCommand {
  package static let name = "totp-unenroll"
  package static let usage = "totp-unenroll ID"
  package static let summary = "Remove a second factor (ids in 'whoami')."

  package let enrollmentID: String
}

extension UnenrollSecondFactorCommand {
  package init(arguments: [String]) throws(CommandError) {
    enrollmentID = try Self.one(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    let user = try await session.auth.unenrollSecondFactor(enrollmentID)
    await session.say("second factor removed; \(user.secondFactors.count) left")
  }
}
