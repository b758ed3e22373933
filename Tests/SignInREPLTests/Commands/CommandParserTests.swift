import Foundation
import SignInKit
import Testing

@testable import SignInREPL

@Suite struct CommandParserTests {
  @Test(arguments: [
    ("signup ada@example.com", REPLCommand.signUp(email: "ada@example.com")),
    ("SIGNIN ada@example.com", .signIn(email: "ada@example.com")),
    ("anonymous", .anonymous),
    ("google", .google()),
    (
      "google --issuer https://idp.example.com --client-id c1 --device",
      .google(GoogleOptions(issuer: "https://idp.example.com", clientID: "c1", device: true))
    ),
    ("apple", .apple()),
    ("apple --nonce raw-1 --id-token a.b.c", .apple(idToken: "a.b.c", rawNonce: "raw-1")),
    ("link email ada@example.com", .linkEmail("ada@example.com")),
    ("link google", .linkProvider(.google)),
    ("unlink apple.com", .unlink(.apple)),
    ("restore", .restore),
    ("custom-token eyJ.eyJ.", .customToken("eyJ.eyJ.")),
    ("send-link grace@example.com", .sendSignInLink(email: "grace@example.com", continueURL: nil)),
    (
      "send-link grace@example.com --continue https://example.com/done",
      .sendSignInLink(email: "grace@example.com", continueURL: URL(string: "https://example.com/done"))
    ),
    (
      "signin-link grace@example.com https://p.firebaseapp.com/__/auth/action?mode=signIn&oobCode=C",
      .signInWithLink(
        email: "grace@example.com", link: "https://p.firebaseapp.com/__/auth/action?mode=signIn&oobCode=C")
    ),
    (
      "link email grace@example.com https://l?mode=signIn&oobCode=C",
      .linkEmailLink(email: "grace@example.com", link: "https://l?mode=signIn&oobCode=C")
    ),
    ("check-code abc123", .checkCode("abc123")),
    ("totp-enroll", .enrollTOTP(name: nil)),
    ("totp-enroll Phone", .enrollTOTP(name: "Phone")),
    ("totp-unenroll E1", .unenrollSecondFactor("E1")),
    ("verify-new-email grace@example.com", .verifyNewEmail("grace@example.com")),
    ("whoami", .whoami),
    ("token", .token(force: false, claims: false, reveal: false)),
    ("token --claims --force", .token(force: true, claims: true, reveal: false)),
    ("refresh", .refresh),
    ("reload", .reload),
    ("profile --name 'Ada Lovelace'", .profile(name: "Ada Lovelace", photo: nil)),
    ("profile --photo https://x.example/a.png", .profile(name: nil, photo: URL(string: "https://x.example/a.png"))),
    ("email grace@example.com", .changeEmail("grace@example.com")),
    ("password", .changePassword),
    ("verify-email", .verifyEmail),
    ("apply-code abc123", .applyCode("abc123")),
    ("reset-password ada@example.com", .resetPassword(email: "ada@example.com")),
    ("confirm-reset abc123", .confirmReset(code: "abc123")),
    ("mailbox", .mailbox(email: nil)),
    ("mailbox ada@example.com", .mailbox(email: "ada@example.com")),
    ("delete-account", .deleteAccount),
    ("signout", .signOut),
    ("state", .state),
    ("watch off", .watch(false)),
    ("watch users on", .watchUsers(true)),
    ("watch users off", .watchUsers(false)),
    ("exit", .quit),
    ("help token", .help("token")),
  ])
  func everyCommandParses(line: String, command: REPLCommand) throws {
    #expect(try CommandParser.parse(line: line) == [command])
  }

  @Test(arguments: [
    ("signup", "signup EMAIL"),
    ("signup not-an-email", "signup EMAIL"),
    ("whoami now", "whoami"),
    ("custom-token", "custom-token TOKEN"),
    ("send-link", "send-link EMAIL [--continue URL]"),
    ("send-link grace@example.com --continue not-a-url", "send-link EMAIL [--continue URL]"),
    ("signin-link grace@example.com", "signin-link EMAIL LINK"),
    ("check-code", "check-code CODE"),
    ("totp-enroll a b", "totp-enroll [NAME]"),
    ("totp-unenroll", "totp-unenroll ID"),
    ("verify-new-email nobody", "verify-new-email NEW"),
    ("custom-token a b", "custom-token TOKEN"),
    ("token --everything", "token [--force] [--claims] [--reveal]"),
    ("link facebook", "link email EMAIL [LINK] | link google | link apple"),
    ("profile", "profile [--name NAME] [--photo URL]"),
    ("profile --photo notaurl", "profile [--name NAME] [--photo URL]"),
    ("watch maybe", "watch on|off | watch users on|off"),
  ])
  func wrongArgumentsShowTheUsageLine(line: String, usage: String) {
    #expect(throws: CommandError.usage(usage)) { try CommandParser.parse(line: line) }
  }

  @Test func unknownCommandSuggestsTheClosest() {
    #expect(throws: CommandError.unknownCommand("sigin", suggestion: "signin")) {
      try CommandParser.parse(line: "sigin ada@example.com")
    }
    #expect(throws: CommandError.unknownCommand("whoamI2", suggestion: "whoami")) {
      try CommandParser.parse(line: "whoamI2")
    }
    #expect(throws: CommandError.unknownCommand("xyzzy", suggestion: nil)) {
      try CommandParser.parse(line: "xyzzy")
    }
  }

  @Test func quotesEscapesAndSemicolonsSplitLikeAShell() throws {
    #expect(
      try CommandLexer.commands(in: #"profile --name "Ada \"A\" L"; whoami ; ; # note"#)
        == [["profile", "--name", #"Ada "A" L"#], ["whoami"]])
    #expect(try CommandLexer.commands(in: "apply-code 'a;b c'") == [["apply-code", "a;b c"]])
    #expect(try CommandLexer.commands(in: "   ") == [])
    #expect(try CommandParser.parse(line: "signup a@b.co; whoami") == [.signUp(email: "a@b.co"), .whoami])
  }

  @Test func unbalancedQuoteIsReportedAndNothingRuns() {
    let error = #expect(throws: CommandError.unbalancedQuote("'")) {
      try CommandParser.parse(line: "whoami; profile --name 'Ada")
    }
    #expect(error?.description.contains("not closed") == true)
  }

  @Test func megabyteLineIsRefusedWithoutParsing() {
    let line = "signin " + String(repeating: "a", count: 1 << 20)
    #expect(throws: CommandError.lineTooLong(line.utf8.count)) { try CommandParser.parse(line: line) }
  }

  @Test func everyCatalogEntryHasAUsageStartingWithItsName() {
    for entry in CommandCatalog.entries {
      #expect(entry.usage.hasPrefix(entry.name))
      #expect(!entry.summary.isEmpty)
    }
  }

  @Test func linesWithSecretsAreMarkedSoHistorySkipsThem() throws {
    #expect(try CommandParser.parse(line: "apple --id-token a.b.c --nonce n")[0].carriesSecret)
    #expect(
      try CommandParser.parse(line: "google --issuer https://x.example --client-id c --client-secret s")[0]
        .carriesSecret)
    #expect(try !CommandParser.parse(line: "google --issuer https://x.example --client-id c")[0].carriesSecret)
    // One-time codes prove access to the mailbox: as secret as a password while they are valid.
    #expect(try CommandParser.parse(line: "confirm-reset 123456")[0].carriesSecret)
    #expect(try CommandParser.parse(line: "apply-code 123456")[0].carriesSecret)
    #expect(try !CommandParser.parse(line: "signin ada@example.com")[0].carriesSecret)
  }

  func failure(_ line: String) -> CommandError? {
    do {
      _ = try CommandParser.parse(line: line)
      return nil
    } catch {
      return error
    }
  }

  @Test func anUnknownFirstWordIsNeverRepeatedBack() {
    let error = failure("hunter2-correct-horse")
    #expect(error?.description.contains("hunter2") == false)
    #expect(error?.description.hasPrefix("Unknown command") == true)
    // After `help` the word is a topic, and saying which one helps.
    #expect(failure("help nope")?.description.contains("'nope'") == true)
  }
}
