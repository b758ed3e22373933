import Foundation
import SignInKit
import SignInKitEmbedded

/// `passkey enrol [NAME] | passkey signin [--presence-only] | passkey list | passkey remove ID`: Passkeys, made and used by the development authenticator (keys in the data folder: for development only).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct PasskeyCommand: REPLCommand {
  package static let name = "passkey"
  package static let usage =
    "passkey enrol [NAME] | passkey signin [--presence-only] | passkey list | passkey remove ID"
  package static let summary =
    "Passkeys, made and used by the development authenticator (keys in the data folder: for development only)."

  /// What to do.
  package enum Action: Sendable, Equatable {
    case enrol(name: String)
    /// With `verifiesUser` false the authenticator reports presence only (a security key
    /// without a PIN), and an account with a second factor asks for it.
    case signIn(verifiesUser: Bool)
    case list
    case remove(credentialID: String)
  }

  package let action: Action
}

extension PasskeyCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch (arguments.first?.lowercased(), arguments.count) {
    case ("enrol", 1), ("enroll", 1): action = .enrol(name: "Development authenticator")
    case ("enrol", 2), ("enroll", 2): action = .enrol(name: arguments[1])
    case ("signin", 1), ("sign-in", 1): action = .signIn(verifiesUser: true)
    case ("signin", 2) where arguments[1] == "--presence-only", ("sign-in", 2) where arguments[1] == "--presence-only":
      action = .signIn(verifiesUser: false)
    case ("list", 1): action = .list
    case ("remove", 2): action = .remove(credentialID: arguments[1])
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["enrol", "signin", "list", "remove"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let device = try session.passkeyAuthenticator()
    switch action {
    case .enrol(let name):
      let user = try await session.auth.enrollPasskey(named: name, using: device)
      await session.say(
        "passkey enrolled (development authenticator): "
          + user.passkeys.map { "\"\($0.name)\" (\($0.credentialID))" }.joined(separator: ", "))
    case .signIn(let verifiesUser):
      let result = try await session.withSecondFactor {
        verifiesUser
          ? try await session.auth.signInWithPasskey(using: device)
          : try await session.auth.signInWithPasskey(using: device.presenceOnly)
      }
      await session.say("signed in with a passkey as \(TranscriptFormatter.who(result.user))")
    case .list:
      let enrolled = session.auth.currentUser?.passkeys ?? []
      let held = await device.passkeys()
      if enrolled.isEmpty && held.isEmpty { await session.say("no passkeys") }
      for passkey in enrolled {
        let here = held.contains { $0.id == passkey.credentialID } ? "on this authenticator" : "elsewhere"
        await session.say("enrolled: \"\(passkey.name)\" (\(passkey.credentialID)), \(here)")
      }
      for credential in held where !enrolled.contains(where: { $0.credentialID == credential.id }) {
        await session.say("held: \(credential)")
      }
    case .remove(let credentialID):
      let user = try await session.auth.removePasskey(credentialID: credentialID)
      await session.say("passkey removed; \(user.passkeys.count) left")
    }
  }
}
