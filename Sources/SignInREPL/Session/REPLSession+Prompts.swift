import Foundation
import SignInKit
import SignInKitEmbedded
import SignInKitFlows

extension REPLSession {
  func say(_ text: String, fields: [String: String] = [:]) async {
    await renderer.say(text, fields: fields)
  }

  /// Ctrl-C at any prompt reads the same: the command was cancelled.
  private func throwIfInterrupted() throws {
    if Task.isCancelled { throw AuthError(.cancelled, "Cancelled; nothing changed.") }
  }

  func secret(_ prompt: String) async throws -> String {
    let value = await input.secret(prompt: prompt)
    try throwIfInterrupted()
    guard let value, !value.isEmpty else {
      throw AuthError(.userCancelled, "No password was given; nothing changed.")
    }
    return value
  }

  /// Says what is about to happen and waits for `yes`; anything else (or no answer) changes
  /// nothing. Commands that cannot be undone ask it, unless given `--yes`.
  func confirm(_ warning: String) async throws {
    await say(warning)
    let answer = await input.line(prompt: "Type yes to go on: ")
    try throwIfInterrupted()
    guard let answer, ["yes", "y"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
      throw AuthError(.userCancelled, "Not confirmed; nothing changed.")
    }
  }

  /// A one-time code from an authenticator app (shown as typed: it is good for seconds).
  func oneTimeCode() async throws -> String {
    try await answer("Code from the app: ", whenMissing: "No code was given; nothing changed.")
  }

  /// The code texted for `verification`. A backend without phones (the embedded one, the
  /// emulator) shows its text first, as the phone would; then the person types the code.
  func textedCode(for verification: PhoneVerification) async throws -> String {
    if backend.showsTextedCodes,
      let text = try? await backend.texts(to: nil).first(where: { $0.verificationID == verification.verificationID })
    {
      await say("text to \(text.to): \(text.code)", fields: ["code": text.code])
    } else {
      await say("code texted to \(verification.phoneNumber)")
    }
    return try await answer(
      "Code from the text: ",
      whenMissing: "No code was given; the code stays usable until "
        + "\(verification.expiresAt.formatted(date: .omitted, time: .shortened)): `phone` asks for it again.")
  }

  /// The next line, trimmed; with none, or an empty one, `whenMissing` as a user cancellation.
  private func answer(_ prompt: String, whenMissing message: String) async throws -> String {
    let line = await input.line(prompt: prompt)
    try throwIfInterrupted()
    guard let answer = line?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
      throw AuthError(.userCancelled, message)
    }
    return answer
  }

  /// Runs a sign-in; when the account asks for its second factor, lets the person choose one
  /// (by number when there are several), asks for its code (an authenticator app's, or the one
  /// texted to the phone) and finishes the sign-in.
  func withSecondFactor(_ signIn: () async throws -> SignInResult) async throws -> SignInResult {
    do {
      return try await signIn()
    } catch let error as AuthError where error.secondFactor != nil {
      let challenge = error.secondFactor!
      let factors = challenge.factors.filter { $0.kind == .totp || $0.kind == .phone }
      guard !factors.isEmpty else {
        throw AuthError(
          .operationNotAllowed, "This account's second factor is neither an app nor a phone; sign in elsewhere.")
      }
      var factor = factors[0]
      if factors.count > 1 {
        for (index, candidate) in factors.enumerated() {
          await say("\(index + 1). \(TranscriptFormatter.describe(candidate))")
        }
        let answer = try await answer(
          "Factor (1-\(factors.count)): ", whenMissing: "No factor was chosen; nothing changed.")
        guard let number = Int(answer), factors.indices.contains(number - 1) else {
          throw CommandError.unusableAnswer(
            "'\(answer)' is not a number from 1 to \(factors.count); nothing changed. Sign in again and type one.")
        }
        factor = factors[number - 1]
      }
      await say("second factor required: \(TranscriptFormatter.describe(factor))")
      guard factor.kind == .phone else {
        let code = try await oneTimeCode()
        return try await auth.resolveSignIn(challenge, enrollmentID: factor.enrollmentID, code: code)
      }
      let verification = try await auth.sendSecondFactorCode(for: challenge, enrollmentID: factor.enrollmentID)
      let code = try await textedCode(for: verification)
      return try await auth.resolveSignIn(challenge, verification: verification, code: code)
    }
  }

  /// A new password, typed twice on a terminal (once from a script).
  func newPassword() async throws -> String {
    let first = try await secret("New password: ")
    // The project's policy is checked before the password is asked again.
    if let problem = await FieldChecks.newPasswordProblem(first, auth: auth, in: FlowStrings(language: "en")) {
      throw AuthError(.weakPassword, "\(problem) Nothing changed; try again.")
    }
    guard input.isTerminal else { return first }
    let second = try await secret("Repeat it: ")
    guard first == second else {
      throw CommandError.unusableAnswer("The two passwords differ; nothing changed. Type the same password twice.")
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
        (["Choose an account at \(name):"] + choices + [
          known.isEmpty ? "  (none yet: type an email)" : "  or type another email"
        ])
        .joined(separator: "\n"))
    }
    let line = await input.line(prompt: "Account: ")
    try throwIfInterrupted()
    guard let answer = line?.trimmingCharacters(in: .whitespaces) else {
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
