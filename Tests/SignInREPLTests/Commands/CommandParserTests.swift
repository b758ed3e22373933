import Foundation
import SignInKit
import Testing

@testable import SignInREPL

@Suite struct CommandParserTests {
  @Test(arguments: [
    ("signup ada@example.com", SignUpCommand(email: "ada@example.com") as any REPLCommand),
    ("SIGNIN ada@example.com", SignInCommand(email: "ada@example.com")),
    ("anonymous", AnonymousCommand()),
    ("google", GoogleCommand(options: GoogleOptions())),
    (
      "google --issuer https://idp.example.com --client-id c1 --device",
      GoogleCommand(options: GoogleOptions(issuer: "https://idp.example.com", clientID: "c1", device: true))
    ),
    (
      "google --issuer https://accounts.google.com --client-id c1 --server-client-id web-1 --reveal",
      GoogleCommand(
        options: {
          var options = GoogleOptions(issuer: "https://accounts.google.com", clientID: "c1")
          options.serverClientID = "web-1"
          options.revealsServerCode = true
          return options
        }())
    ),
    ("apple", AppleCommand()),
    ("tenant", TenantCommand(target: nil)),
    ("tenant --project", TenantCommand(target: .some(nil))),
    ("tenant acme-x1", TenantCommand(target: "acme-x1")),
    ("apple --nonce raw-1 --id-token a.b.c", AppleCommand(idToken: "a.b.c", rawNonce: "raw-1")),
    ("apple --account tim@example.com", AppleCommand(account: "tim@example.com")),
    ("oauth Microsoft.com", OAuthCommand(providerID: "microsoft.com")),
    ("oauth saml.acme --account lin@acme.example", OAuthCommand(providerID: "saml.acme", account: "lin@acme.example")),
    ("google --account ada@example.com", GoogleCommand(options: GoogleOptions(account: "ada@example.com"))),
    ("link email ada@example.com", LinkCommand(target: .email("ada@example.com"))),
    ("link google", LinkCommand(target: .provider(.google))),
    ("unlink apple.com", UnlinkCommand(provider: .apple)),
    ("unlink phone", UnlinkCommand(provider: .phone)),
    ("phone", PhoneCommand(phoneNumber: nil)),
    ("phone +1 555 555 0100", PhoneCommand(phoneNumber: "+15555550100")),
    ("link phone +44 7700 900123", LinkCommand(target: .phone("+447700900123"))),
    ("change-phone +15555550101", ChangePhoneCommand(phoneNumber: "+15555550101")),
    (
      "mfa enrol sms +15555550123",
      SecondFactorCommand(action: .enrolPhone(phoneNumber: "+15555550123", displayName: nil))
    ),
    (
      "mfa enroll sms +15555550123 'Work phone'",
      SecondFactorCommand(action: .enrolPhone(phoneNumber: "+15555550123", displayName: "Work phone"))
    ),
    ("mfa enrol totp Phone", SecondFactorCommand(action: .enrolApp(displayName: "Phone"))),
    ("mfa remove E1", SecondFactorCommand(action: .remove(enrollmentID: "E1"))),
    ("texts", TextsCommand(phoneNumber: nil)),
    ("passkey enrol", PasskeyCommand(action: .enrol(name: "Development authenticator"))),
    ("passkey enroll 'Work laptop'", PasskeyCommand(action: .enrol(name: "Work laptop"))),
    ("passkey signin", PasskeyCommand(action: .signIn(verifiesUser: true))),
    ("passkey signin --presence-only", PasskeyCommand(action: .signIn(verifiesUser: false))),
    ("passkey list", PasskeyCommand(action: .list)),
    ("reauth", ReauthCommand(provider: .password)),
    ("reauth google", ReauthCommand(provider: .google)),
    ("google --id-token a.b.c", GoogleCommand(options: GoogleOptions(idToken: "a.b.c"))),
    ("passkey remove FCBo", PasskeyCommand(action: .remove(credentialID: "FCBo"))),
    ("texts +15555550100", TextsCommand(phoneNumber: "+15555550100")),
    ("restore", RestoreCommand()),
    ("custom-token eyJ.eyJ.", CustomTokenCommand(token: "eyJ.eyJ.")),
    ("send-link grace@example.com", SendLinkCommand(email: "grace@example.com", continueURL: nil)),
    (
      "send-link grace@example.com --continue https://example.com/done",
      SendLinkCommand(email: "grace@example.com", continueURL: URL(string: "https://example.com/done"))
    ),
    (
      "signin-link grace@example.com https://p.firebaseapp.com/__/auth/action?mode=signIn&oobCode=C",
      SignInLinkCommand(
        email: "grace@example.com", link: "https://p.firebaseapp.com/__/auth/action?mode=signIn&oobCode=C")
    ),
    (
      "link email grace@example.com https://l?mode=signIn&oobCode=C",
      LinkCommand(target: .emailLink(email: "grace@example.com", link: "https://l?mode=signIn&oobCode=C"))
    ),
    ("check-code abc123", CheckCodeCommand(code: "abc123")),
    ("totp-enroll", EnrollTOTPCommand(displayName: nil)),
    ("totp-enroll Phone", EnrollTOTPCommand(displayName: "Phone")),
    ("totp-unenroll E1", UnenrollSecondFactorCommand(enrollmentID: "E1")),
    ("verify-new-email grace@example.com", VerifyNewEmailCommand(email: "grace@example.com")),
    ("whoami", WhoAmICommand()),
    ("token", TokenCommand(force: false, claims: false, reveal: false)),
    ("token --claims --force", TokenCommand(force: true, claims: true, reveal: false)),
    ("refresh", RefreshCommand()),
    ("reload", ReloadCommand()),
    ("profile --name 'Ada Lovelace'", ProfileCommand(name: "Ada Lovelace", photo: nil)),
    (
      "profile --photo https://x.example/a.png",
      ProfileCommand(name: nil, photo: URL(string: "https://x.example/a.png"))
    ),
    ("email grace@example.com", ChangeEmailCommand(email: "grace@example.com")),
    ("password", ChangePasswordCommand()),
    ("verify-email", VerifyEmailCommand()),
    ("apply-code abc123", ApplyCodeCommand(code: "abc123")),
    ("reset-password ada@example.com", ResetPasswordCommand(email: "ada@example.com")),
    ("confirm-reset abc123", ConfirmResetCommand(code: "abc123")),
    ("mailbox", MailboxCommand(email: nil)),
    ("mailbox ada@example.com", MailboxCommand(email: "ada@example.com")),
    ("delete-account", DeleteAccountCommand()),
    ("signout", SignOutCommand()),
    ("state", StateCommand()),
    ("watch off", WatchCommand(users: false, on: false)),
    ("watch users on", WatchCommand(users: true, on: true)),
    ("watch users off", WatchCommand(users: true, on: false)),
    ("exit", QuitCommand()),
    ("help token", HelpCommand(topic: "token")),
  ])
  func everyCommandParses(line: String, command: any REPLCommand) throws {
    let parsed = try CommandParser.parse(line: line)
    #expect(parsed.count == 1 && parsed[0].isSame(as: command), "\(parsed)")
  }

  @Test(arguments: [
    ("signup", "signup EMAIL"),
    ("whoami now", "whoami"),
    ("custom-token", "custom-token TOKEN"),
    ("send-link", "send-link EMAIL [--continue URL]"),
    ("send-link grace@example.com --continue not-a-url", "send-link EMAIL [--continue URL]"),
    ("signin-link grace@example.com", "signin-link EMAIL LINK"),
    ("check-code", "check-code CODE"),
    ("totp-enroll a b", "totp-enroll [NAME]"),
    ("totp-unenroll", "totp-unenroll ID"),
    ("custom-token a b", "custom-token TOKEN"),
    ("token --everything", "token [--force] [--claims] [--reveal]"),
    ("link facebook", "link email EMAIL [LINK] | link phone NUMBER | link google | link apple"),
    ("mfa enrol fax +15555550123", "mfa enrol sms NUMBER [NAME] | mfa enrol totp [NAME] | mfa remove ID"),
    ("change-phone", "change-phone NUMBER"),
    ("reauth facebook", "reauth [password|google|apple]"),
    ("passkey forge", "passkey enrol [NAME] | passkey signin [--presence-only] | passkey list | passkey remove ID"),
    ("profile", "profile [--name NAME] [--photo URL]"),
    ("profile --photo notaurl", "profile [--name NAME] [--photo URL]"),
    ("watch maybe", "watch on|off | watch users on|off"),
    ("oauth", "oauth PROVIDER [--account EMAIL]"),
    ("oauth github.com --account nobody", "oauth PROVIDER [--account EMAIL]"),
    ("google --server-client-id web-1", GoogleCommand.usage),
    ("tenant a b", "tenant [ID|--project]"),
    ("tenant --everyone", "tenant [ID|--project]"),
    ("google --issuer https://accounts.google.com --client-id c1 --reveal", GoogleCommand.usage),
  ])
  func wrongArgumentsShowTheUsageLine(line: String, usage: String) {
    #expect(throws: CommandError.usage(usage)) { try CommandParser.parse(line: line) }
  }

  @Test(arguments: [
    "signup not-an-email", "signup ada@", "signin @example.com", "signup 'ada @example.com'",
    "verify-new-email nobody",
  ])
  func anEmailOfTheWrongShapeIsRefusedBeforeAnythingIsAsked(line: String) throws {
    let error = try #require(throws: CommandError.self) { try CommandParser.parse(line: line) }
    guard case .invalidArgument(let problem, let usage) = error else { throw error }
    #expect(problem.contains("not an email address"))
    #expect(usage.hasSuffix("EMAIL") || usage.hasSuffix("NEW"))
  }

  @Test func helpListsEveryCommandOnceByGroupWithinTheWidth() {
    let grouped = HelpCommand.groups.flatMap { group in group.commands.map { $0.name } }
    let listed = grouped + HelpCommand.aliases.map { $0.name }
    #expect(listed.sorted() == CommandCatalog.commands.map { $0.name }.sorted())
    #expect(Set(listed).count == listed.count, "a command is listed twice")
    let lines = HelpCommand.overview.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= 96 }, "\(lines.filter { $0.count > 96 })")
    let words = HelpCommand.overview.replacingOccurrences(of: "totp-enroll", with: "")
      .replacingOccurrences(of: "totp-unenroll", with: "")
    #expect(!words.contains("enroll"), "one spelling: enrol")
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
    let two = try CommandParser.parse(line: "signup a@b.co; whoami")
    #expect(two.count == 2 && two[0].isSame(as: SignUpCommand(email: "a@b.co")) && two[1].isSame(as: WhoAmICommand()))
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

  @Test func everyCommandHasAUsageStartingWithItsNameAndOneNameOnly() {
    for command in CommandCatalog.commands {
      #expect(command.usage.hasPrefix(command.name))
      #expect(!command.summary.isEmpty)
    }
    let names = CommandCatalog.commands.map { $0.name }
    #expect(Set(names).count == names.count)
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
