import Foundation
import SignInKit
import SignInKitEmbedded

extension REPLSession {
  func say(_ text: String, fields: [String: String] = [:]) async {
    await renderer.say(text, fields: fields)
  }

  func secret(_ prompt: String) async throws -> String {
    let value = await input.secret(prompt: prompt)
    if Task.isCancelled { throw AuthError(.cancelled, "Cancelled; nothing changed.") }
    guard let value, !value.isEmpty else {
      throw AuthError(.userCancelled, "No password was given; nothing changed.")
    }
    return value
  }

  /// A new password, typed twice on a terminal (once from a script).
  func newPassword() async throws -> String {
    let first = try await secret("New password: ")
    guard input.isTerminal else { return first }
    let second = try await secret("Repeat it: ")
    guard first == second else {
      throw AuthError(.userCancelled, "The two passwords differ; nothing changed. Try again.")
    }
    return first
  }

  /// The account chooser: at a terminal it lists the emails already used at `idp`; the answer
  /// is a number from the list or an email (typed, or the next line of a script).
  func chooseAccount(at idp: EmbeddedIdentityProvider) async throws -> String {
    let known = await backend.knownEmails(signedInWith: idp.providerID)
    if input.isTerminal {
      let name = TranscriptFormatter.name(of: idp.providerID)
      let choices = known.enumerated().map { "  \($0.offset + 1)) \($0.element)" }
      await say(
        (["Choose an account at \(name):"] + choices + [known.isEmpty ? "  (none yet: type an email)" : "  or type another email"])
          .joined(separator: "\n"))
    }
    guard let answer = await input.line(prompt: "Account: ")?.trimmingCharacters(in: .whitespaces) else {
      throw AuthError(.userCancelled, "No account was chosen; nothing changed.")
    }
    if let number = Int(answer), known.indices.contains(number - 1) { return known[number - 1] }
    guard answer.contains("@") else {
      throw AuthError(
        .invalidEmail,
        "'\(answer)' is not an email\(known.isEmpty ? "" : " or a number from the list"); nothing changed. Try again.")
    }
    return answer
  }
}
