/// The REPL's commands: names, usage lines and one-line help, and the closest name to a typo.
///
/// - Concurrency: stateless, any isolation.
package enum CommandCatalog {
  /// One command's documentation.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Entry: Sendable, Equatable {
    package let name: String
    package let usage: String
    package let summary: String
  }

  package static let entries: [Entry] = [
    Entry(name: "signup", usage: "signup EMAIL", summary: "Create an account; asks for a password twice."),
    Entry(name: "signin", usage: "signin EMAIL", summary: "Sign in with email and password."),
    Entry(name: "anonymous", usage: "anonymous", summary: "Sign in without an account."),
    Entry(
      name: "send-link", usage: "send-link EMAIL [--continue URL]",
      summary: "Email a sign-in link (no password); see 'mailbox', then 'signin-link'."),
    Entry(name: "signin-link", usage: "signin-link EMAIL LINK", summary: "Sign in with the link from a sign-in email."),
    Entry(
      name: "custom-token", usage: "custom-token TOKEN",
      summary: "Sign in with a custom token your server minted (signin serve also takes unsigned ones)."),
    Entry(
      name: "google",
      usage: "google [--issuer URL] [--client-id ID] [--client-secret S] [--device] [--device-endpoint URL]",
      summary: "Sign in with Google or any OpenID issuer (offline: the embedded IdP's account chooser)."),
    Entry(
      name: "apple", usage: "apple [--id-token TOKEN --nonce RAW]",
      summary: "Sign in with Apple (offline: the embedded IdP), or with a token obtained elsewhere."),
    Entry(
      name: "link", usage: "link email EMAIL [LINK] | link google | link apple",
      summary: "Add a sign-in method to this account, keeping its uid (an email with a password, or a sign-in link)."),
    Entry(
      name: "unlink", usage: "unlink PROVIDER", summary: "Remove a sign-in method (google.com, apple.com, password)."),
    Entry(name: "restore", usage: "restore", summary: "Restore the previous sign-in."),
    Entry(name: "whoami", usage: "whoami", summary: "Show the signed-in user."),
    Entry(
      name: "token", usage: "token [--force] [--claims] [--reveal]",
      summary: "Show the ID token (redacted unless --reveal)."),
    Entry(name: "refresh", usage: "refresh", summary: "Refresh the ID token now."),
    Entry(name: "reload", usage: "reload", summary: "Fetch the profile again."),
    Entry(name: "profile", usage: "profile [--name NAME] [--photo URL]", summary: "Change the display name or photo."),
    Entry(name: "email", usage: "email NEW", summary: "Change the email address."),
    Entry(name: "password", usage: "password", summary: "Change the password; asks twice."),
    Entry(name: "verify-email", usage: "verify-email", summary: "Send a verification code."),
    Entry(
      name: "apply-code", usage: "apply-code CODE", summary: "Apply an email-verification or change-of-email code."),
    Entry(
      name: "check-code", usage: "check-code CODE",
      summary: "Say what an emailed code is for and for whom, without using it."),
    Entry(
      name: "verify-new-email", usage: "verify-new-email NEW",
      summary: "Email NEW a code that makes it this account's email once applied."),
    Entry(name: "reset-password", usage: "reset-password EMAIL", summary: "Send a password-reset code."),
    Entry(name: "confirm-reset", usage: "confirm-reset CODE", summary: "Set a new password with a reset code."),
    Entry(name: "mailbox", usage: "mailbox [EMAIL]", summary: "Show the codes the embedded backend sent."),
    Entry(
      name: "totp-enroll", usage: "totp-enroll [NAME]",
      summary: "Add an authenticator app as a second factor: shows its secret, then asks for a code."),
    Entry(name: "totp-unenroll", usage: "totp-unenroll ID", summary: "Remove a second factor (ids in 'whoami')."),
    Entry(name: "delete-account", usage: "delete-account", summary: "Delete this account."),
    Entry(name: "signout", usage: "signout", summary: "Sign out."),
    Entry(name: "state", usage: "state", summary: "Show the current state."),
    Entry(
      name: "watch", usage: "watch on|off | watch users on|off",
      summary: "Print every state change and event as it happens; or, with users, the signed-in user when it changes."),
    Entry(name: "quit", usage: "quit", summary: "Leave (also exit, or Ctrl-D)."),
    Entry(name: "help", usage: "help [COMMAND]", summary: "List commands, or explain one."),
  ]

  /// The entry named `name` (`exit` is `quit`).
  package static func entry(named name: String) -> Entry? {
    let name = name == "exit" ? "quit" : name
    return entries.first { $0.name == name }
  }

  /// The command name closest to `typo` by edit distance, when it is close enough to be a typo.
  package static func suggestion(for typo: String) -> String? {
    let typo = typo.lowercased()
    let scored = entries.map { ($0.name, editDistance(typo, $0.name)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(2, typo.count / 3) ? best.0 : nil
  }

  /// Levenshtein distance.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
