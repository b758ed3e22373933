import Foundation
import SignInKit
import SignInKitEmbedded
import Testing

/// Every REPL command's success and failure, run through the built `signin` over pipes: the
/// script, what is typed on stdin (passwords, chosen accounts), the lines that must appear, and
/// the exit status.
/// Serialized, so that the fifty-odd processes do not all start (and make RSA keys) at once.
@Suite(.serialized, .timeLimit(.minutes(8)))
struct SigninCommandTranscriptTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let script: String
    var stdin = ""
    let shows: [String]
    let status: Int32
    var testDescription: String { script }
  }

  static let signedUp = "signup ada@example.com; "
  static let password = "pw-123456\n"

  static let cases: [Case] = [
    Case(script: "signup ada@example.com", stdin: password, shows: ["signed up as ada@example.com"], status: 0),
    Case(
      script: signedUp + "signout; signup ada@example.com", stdin: password + password,
      shows: ["error (email-already-in-use)", "Sign in instead"], status: 1),
    Case(
      script: signedUp + "profile --name Ada; whoami", stdin: password, shows: ["ada@example.com (", "; name: Ada;"],
      status: 0),
    Case(script: "signup not-an-email", shows: ["not an email address", "Usage: signup EMAIL"], status: 2),
    Case(
      script: "signup ada@example.com", stdin: "short\n", shows: ["error (weak-password)", "at least 6 characters"],
      status: 1),
    Case(
      script: signedUp + "tenant acme-x1; signup bob@example.com; tenant --project; tenant; tenant acme-x1",
      stdin: password + password,
      shows: [
        "switched to tenant acme-x1; nobody is signed in there", "signed up as bob@example.com",
        "switched to the project's own users; restored ada@example.com", "tenant: the project's own users",
        "switched to tenant acme-x1; restored bob@example.com",
      ], status: 0),
    Case(
      script: signedUp + "signout; signin ada@example.com", stdin: password + password,
      shows: ["\nsigned out\n", "signed in as ada@example.com"], status: 0),
    Case(
      script: signedUp + "signout; signin ada@example.com", stdin: password + "wrong-pass\n",
      shows: ["error (wrong-password)"], status: 1),
    Case(
      script: "signin ada@example.com", shows: ["error (user-cancelled)", "No password was given; nothing changed."],
      status: 1),
    Case(
      script: signedUp + "signout" + String(repeating: "; signin ada@example.com", count: 6),
      stdin: password + String(repeating: "wrong-pass\n", count: 5) + password,
      shows: ["error (too-many-requests)", "Try again in 30 seconds", "Try again after "], status: 1),
    Case(script: "custom-token not-a-token", shows: ["error (invalid-custom-token)"], status: 1),
    Case(script: "anonymous", shows: ["signed in as an anonymous user"], status: 0),
    Case(script: "anonymous now", shows: ["Usage: anonymous"], status: 2),
    Case(script: "google", stdin: "grace@example.com\n", shows: ["signed in as grace@example.com"], status: 0),
    Case(script: "google", shows: ["No account was chosen; nothing changed."], status: 1),
    Case(script: "apple", stdin: "tim@example.com\n", shows: ["signed in as tim@example.com"], status: 0),
    Case(script: "apple", stdin: "nobody\n", shows: ["'nobody' is not an email"], status: 1),
    Case(
      script: "apple; delete-account; apple", stdin: "tim@example.com\nyes\ntim@example.com\n",
      shows: ["Apple's token revoked; account deleted", "signed in as tim@example.com"], status: 0),
    Case(
      script: "anonymous; link email ada@example.com; whoami", stdin: password,
      shows: ["linked email: ada@example.com", "providers: password"], status: 0),
    Case(script: "link email ada@example.com", stdin: password, shows: ["error (no-current-user)"], status: 1),
    Case(
      script: "anonymous; link google; link apple; whoami", stdin: "g@example.com\na@example.com\n",
      shows: ["linked Google", "linked Apple", "providers: google.com, apple.com"], status: 0),
    Case(script: "link facebook", shows: ["Usage: link email EMAIL"], status: 2),
    Case(
      script: "google; scopes", stdin: "grace@example.com\n",
      shows: ["signed in as grace@example.com", "needs Google at a real OpenID issuer", "--idp google.com=ISSUER"],
      status: 1),
    Case(script: "access-token", shows: ["needs Google at a real OpenID issuer"], status: 1),
    Case(script: "add-scopes", shows: ["Usage: add-scopes SCOPE..."], status: 2),
    Case(script: "access-token --now", shows: ["Usage: access-token [--reveal]"], status: 2),
    Case(
      script: "google; link email ada@example.com; unlink google.com; whoami", stdin: "g@example.com\n" + password,
      shows: ["unlinked google.com", "providers: password"], status: 0),
    Case(script: "anonymous; unlink apple", shows: ["apple.com is not linked to this account"], status: 1),
    Case(
      script: "google; signout; anonymous; link google", stdin: "g@example.com\ng@example.com\n",
      shows: ["that Google account is already g@example.com's", "next: `upgrade google` signs in to it"], status: 1),
    Case(
      script: "google; signout; anonymous; upgrade google; whoami", stdin: "g@example.com\ng@example.com\n",
      shows: [
        "moving the guest's data from", "signed in to the existing account g@example.com", "guest account deleted",
        "providers: google.com",
      ], status: 0),
    Case(script: "anonymous; upgrade apple", stdin: "new@example.com\n", shows: ["linked Apple"], status: 0),
    Case(script: "restore", shows: ["no previous sign-in"], status: 0),
    Case(script: "anonymous; whoami", shows: ["an anonymous user", "providers: none"], status: 0),
    Case(script: "whoami", shows: ["No user is signed in. Try 'signin EMAIL'"], status: 1),
    Case(
      script: "anonymous; token; token --claims",
      shows: ["ID token: ", "characters (use --reveal to show it)", "\"provider_id\":\"anonymous\""],
      status: 0),
    Case(script: "anonymous; token --reveal", shows: ["eyJ"], status: 0),
    Case(script: "token", shows: ["error (no-current-user)"], status: 1),
    Case(script: "token --everything", shows: ["Usage: token [--force] [--claims] [--reveal]"], status: 2),
    Case(script: "anonymous; refresh", shows: ["token refreshed"], status: 0),
    Case(script: "refresh", shows: ["error (no-current-user)"], status: 1),
    Case(script: "anonymous; reload", shows: ["reloaded an anonymous user"], status: 0),
    Case(script: "reload", shows: ["error (no-current-user)"], status: 1),
    Case(
      script: "anonymous; profile --name Ada --photo https://example.com/ada.png",
      shows: ["profile: Ada https://example.com/ada.png"], status: 0),
    Case(script: "profile --name Ada", shows: ["error (no-current-user)"], status: 1),
    Case(script: "profile --name", shows: ["Usage: profile"], status: 2),
    Case(
      script: signedUp + "email ada@example.org; whoami", stdin: password,
      shows: ["email changed to ada@example.org", "ada@example.org"], status: 0),
    Case(script: "anonymous; email nobody", shows: ["Usage: email NEW"], status: 2),
    Case(
      script: signedUp + "password", stdin: password + "new-pass-2\n", shows: ["password changed"], status: 0),
    Case(script: signedUp + "password", stdin: password + "abc\n", shows: ["error (weak-password)"], status: 1),
    Case(
      script: signedUp + "verify-email; mailbox", stdin: password,
      shows: ["verification code sent", "VERIFY_EMAIL to ada@example.com: "], status: 0),
    Case(script: "verify-email", shows: ["error (no-current-user)"], status: 1),
    Case(script: signedUp + "apply-code bogus", stdin: password, shows: ["error (invalid-action-code)"], status: 1),
    Case(
      script: signedUp + "signout; reset-password ada@example.com; mailbox ada@example.com", stdin: password,
      shows: ["reset code sent to ada@example.com", "PASSWORD_RESET to ada@example.com: "], status: 0),
    Case(script: "reset-password ada", shows: ["Usage: reset-password EMAIL"], status: 2),
    Case(script: "confirm-reset bogus", stdin: "new-pass-2\n", shows: ["error (invalid-action-code)"], status: 1),
    Case(script: "mailbox", shows: ["no messages"], status: 0),
    Case(script: "mailbox a b", shows: ["Usage: mailbox [EMAIL]"], status: 2),
    Case(
      script: signedUp + "delete-account --yes; whoami", stdin: password,
      shows: ["account deleted", "No user is signed in"], status: 1),
    Case(
      script: signedUp + "delete-account; whoami", stdin: password + "no\n",
      shows: ["it cannot be undone", "error (user-cancelled): Not confirmed; nothing changed.", "ada@example.com ("],
      status: 1),
    Case(
      script: signedUp + "delete-account", stdin: password + "yes\n", shows: ["cannot be undone", "account deleted"],
      status: 0),
    Case(
      script: "google; unlink google.com", stdin: "g@example.com\nno\n",
      shows: ["the only way to sign in", "Not confirmed; nothing changed."], status: 1),
    Case(
      script: "google; unlink google.com --yes", stdin: "g@example.com\n", shows: ["unlinked google.com"], status: 0),
    Case(script: "delete-account", shows: ["error (no-current-user)"], status: 1),
    Case(script: "anonymous; signout", shows: ["\nsigned out\n"], status: 0),
    Case(script: "signout now", shows: ["Usage: signout"], status: 2),
    Case(script: "state", shows: ["signed out (not signed in yet)"], status: 0),
    Case(
      script: "watch off; anonymous; watch on; signout",
      shows: ["not watching", "watching state changes", "• signed out (you signed out)"], status: 0),
    Case(script: "watch maybe", shows: ["Usage: watch on|off"], status: 2),
    Case(script: "quit; whoami", shows: ["no previous sign-in"], status: 0),
    Case(script: "exit; whoami", shows: ["no previous sign-in"], status: 0),
    Case(script: "help", shows: ["Sign in:\n  start ", "  mailbox           Show the codes"], status: 0),
    Case(script: "help mailbox", shows: ["mailbox [EMAIL]"], status: 0),
    Case(script: "help nope", shows: ["Unknown command 'nope'"], status: 2),
    Case(script: "whoamj", shows: ["Did you mean 'whoami'?"], status: 2),
    Case(script: "profile --name \"Ada", shows: ["A \" quote is not closed."], status: 2),
  ]

  @Test(arguments: cases) func commandTranscript(_ example: Case) async throws {
    let run = try await SigninProcessTests.signin(["--in-memory", "-c", example.script], stdin: example.stdin)
    for line in example.shows {
      #expect(run.output.contains(line), "missing '\(line)' in:\n\(run.output)")
    }
    #expect(run.status == example.status, "\(run.output)")
    // Each command says its result once: the state changes it made are not printed beside it
    // unless asked for with `watch on`.
    if !example.script.contains("watch on") {
      #expect(!run.output.contains("• "), "a command's own state change was printed:\n\(run.output)")
    }
    #expect(!run.output.contains("pw-123456"))
    #expect(!run.output.contains("\u{1B}["), "no colour through a pipe")
  }

  /// The code in the mailbox line `KIND to EMAIL: CODE`.
  static func code(_ kind: String, in output: String) throws -> String {
    let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("\(kind) to ") })
    return String(try #require(line.split(separator: " ").last))
  }

  @Test func aVerificationCodeFromTheMailboxVerifiesTheEmail() async throws {
    let data = SigninProcessTests.Scratch()
    let first = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", Self.signedUp + "verify-email; mailbox"], stdin: Self.password)
    let code = try Self.code("VERIFY_EMAIL", in: first.output)
    let second = try await SigninProcessTests.signin([
      "--data-dir", data.url.path, "-c", "apply-code \(code); reload; whoami",
    ])
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("email verified: true"))
  }

  @Test func aResetCodeFromTheMailboxSetsANewPassword() async throws {
    let data = SigninProcessTests.Scratch()
    let first = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", Self.signedUp + "signout; reset-password ada@example.com; mailbox"],
      stdin: Self.password)
    let code = try Self.code("PASSWORD_RESET", in: first.output)
    let second = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "confirm-reset \(code); signin ada@example.com"],
      stdin: "brand-new-pass\nbrand-new-pass\n")
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("password reset; sign in with the new password"))
    #expect(second.output.contains("signed in as ada@example.com"))
  }

  @Test func badInputIsRejectedWithoutACrashAndEndOfInputLeavesCleanly() async throws {
    let long = try await SigninProcessTests.signin(
      ["--in-memory"], stdin: "whoami " + String(repeating: "x", count: 1 << 20) + "\nstate\n")
    #expect(long.status == 2)
    #expect(long.output.contains("a command line may be at most 65536 bytes"))
    #expect(long.output.contains("signed out (not signed in yet)"))
    let empty = try await SigninProcessTests.signin(["--in-memory"])
    #expect(empty.status == 0)
    let latency = try await SigninProcessTests.signin(["--in-memory", "--latency", "soon"])
    #expect(latency.status == 2)
    #expect(latency.output.contains("--latency needs a number of milliseconds"))
  }
}

extension SigninCommandTranscriptTests {
  @Test func appleWithATokenObtainedElsewhereNeedsItsRawNonce() async throws {
    let data = SigninProcessTests.Scratch()
    _ = try await SigninProcessTests.signin(["--data-dir", data.url.path, "-c", "state"])
    // The embedded Apple IdP's key lives in the data folder; sign a token as Apple would.
    let apple = try EmbeddedIdentityProvider.apple(keyFile: data.url.appendingPathComponent("idp/apple-key.pem"))
    let token = try apple.idToken(email: "tim@example.com", nonce: AppleProvider.hashedNonce("raw-nonce-1"))
    let hashedAsRaw = try await SigninProcessTests.signin(
      [
        "--data-dir", data.url.path, "-c",
        "apple --id-token \(token) --nonce \(AppleProvider.hashedNonce("raw-nonce-1"))",
      ])
    #expect(hashedAsRaw.status == 1)
    #expect(hashedAsRaw.output.contains("error (invalid-credential)"))
    let right = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "apple --id-token \(token) --nonce raw-nonce-1; whoami"])
    #expect(right.status == 0, "\(right.output)")
    #expect(right.output.contains("signed in as tim@example.com"))
    #expect(right.output.contains("providers: apple.com"))
    #expect(!right.output.contains(token))
  }

  /// The first line of `output` that starts with `prefix`, without it.
  static func line(after prefix: String, in output: String) -> String? {
    output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }

  @Test func aSignInLinkFromTheMailboxSignsInWithoutAPassword() async throws {
    let data = SigninProcessTests.Scratch()
    let sent = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "send-link grace@example.com; mailbox grace@example.com"])
    #expect(sent.status == 0, "\(sent.output)")
    #expect(sent.output.contains("sign-in link sent to grace@example.com"))
    let code = try #require(Self.line(after: "EMAIL_SIGNIN to grace@example.com: ", in: sent.output))
    let link = try #require(Self.line(after: "link: ", in: sent.output))
    #expect(link.contains("mode=signIn") && link.contains("oobCode="))
    let signedIn = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "check-code \(code); signin-link grace@example.com \(link); whoami"])
    #expect(signedIn.status == 0, "\(signedIn.output)")
    #expect(signedIn.output.contains("EMAIL_SIGNIN code for grace@example.com; not used"))
    #expect(signedIn.output.contains("(new account)"))
    #expect(signedIn.output.contains("signed in as grace@example.com"))
    #expect(signedIn.output.contains("providers: password"))
    let reused = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "signout; signin-link grace@example.com \(link)"])
    #expect(reused.status == 1)
    #expect(reused.output.contains("error (invalid-action-code)"))
  }

  @Test func aNewEmailChangesOnlyOnceItsCodeIsApplied() async throws {
    let data = SigninProcessTests.Scratch()
    let sent = try await SigninProcessTests.signin(
      [
        "--data-dir", data.url.path, "-c",
        "signup ada@example.com; verify-new-email lovelace@example.com; whoami; mailbox lovelace@example.com",
      ],
      stdin: Self.password + Self.password)
    #expect(sent.status == 0, "\(sent.output)")
    #expect(sent.output.contains("signed up as ada@example.com"))
    let code = try #require(Self.line(after: "VERIFY_AND_CHANGE_EMAIL to lovelace@example.com: ", in: sent.output))
    let applied = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "check-code \(code); apply-code \(code); whoami"])
    #expect(applied.status == 0, "\(applied.output)")
    #expect(applied.output.contains("VERIFY_AND_CHANGE_EMAIL code for ada@example.com → lovelace@example.com"))
    #expect(applied.output.contains("\ncode applied\nlovelace@example.com ("))
  }

  @Test func watchingUsersPrintsTheUserWhenItChangesAndNotOnARefresh() async throws {
    let data = SigninProcessTests.Scratch()
    let run = try await SigninProcessTests.signin(
      [
        "--data-dir", data.url.path, "-c",
        "watch users on; signup ada@example.com; refresh; refresh; refresh; profile --name Ada; signout",
      ],
      stdin: Self.password + Self.password)
    #expect(run.status == 0, "\(run.output)")
    let users = run.output.split(separator: "\n").filter { $0.hasPrefix("• user: ") }
    #expect(users.contains { $0.hasPrefix("• user: ada@example.com (") }, "\(run.output)")
    #expect(users.last == "• user: none")
    // At most: the settled launch (if printed after the watch began), the sign-up, the new name
    // and the sign-out. Three refreshes would add three; a slow printer may merge lines, never add.
    #expect(users.count <= 4, "\(users)")
  }

  @Test func googleAtAnIssuerNeedsAClientID() async throws {
    let run = try await SigninProcessTests.signin(["--in-memory", "-c", "google --issuer https://idp.example.com"])
    #expect(run.status == 1)
    #expect(run.output.contains("Usage: google --issuer URL --client-id ID"))
    let badIdp = try await SigninProcessTests.signin(["--in-memory", "--idp", "facebook.com=https://x"])
    #expect(badIdp.status == 2)
    #expect(badIdp.output.contains("--idp needs google.com=ISSUER_URL"))
  }
}
