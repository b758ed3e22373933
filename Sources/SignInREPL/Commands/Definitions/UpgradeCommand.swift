import Foundation
import SignInKit

/// `upgrade google | upgrade apple`: Give this guest (anonymous) account a sign-in method; when that account exists already, sign in to it and delete the guest.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct UpgradeCommand: REPLCommand {
  package static let name = "upgrade"
  package static let usage = "upgrade google | upgrade apple"
  package static let summary =
    "Give this guest (anonymous) account a sign-in method; when that account exists already, sign in to it and delete the guest."

  package let provider: ProviderID
}

extension UpgradeCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch (arguments.first?.lowercased(), arguments.count) {
    case ("google", 1): provider = .google
    case ("apple", 1): provider = .apple
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["google", "apple"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let renderer = session.renderer
    // An app moves the guest's data here (a cart, drafts); the REPL has none, and says so.
    let handOver: @Sendable (User, User) async throws -> Void = { guest, existing in
      await renderer.say("moving the guest's data from \(guest.uid) to \(existing.uid) (an app does it here)")
    }
    let outcome: Auth.AnonymousUpgrade
    if let held = session.conflictCredential, held.providerID == provider {
      // A `link` just found this account: its credential signs in, without the sheet again.
      session.conflictCredential = nil
      outcome = try await session.auth.upgradeAnonymousUser(with: held, handOver: handOver)
    } else {
      let signInProvider: any SignInProvider =
        provider == .google
        ? try await session.googleProvider(GoogleOptions())
        : try await session.appleProvider(idToken: nil, rawNonce: nil)
      outcome = try await session.auth.upgradeAnonymousUser(with: signInProvider, handOver: handOver)
    }
    switch outcome {
    case .linked(let result):
      await session.say("linked \(TranscriptFormatter.name(of: provider)): \(TranscriptFormatter.who(result.user))")
    case .signedInToExistingAccount(let result, let deleted):
      await session.say("signed in to the existing account \(TranscriptFormatter.who(result.user))")
      await session.say(deleted ? "guest account deleted" : "the guest account could not be deleted; it keeps its data")
    }
  }
}
