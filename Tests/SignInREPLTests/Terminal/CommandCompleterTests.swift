import Testing

@testable import SignInREPL

@Suite struct CommandCompleterTests {
  let emails = ["ada@example.com", "grace@example.com"]

  @Test func completesAUniqueCommandWithASpace() {
    let completion = CommandCompleter.complete("who", knownEmails: emails)
    #expect(completion.candidates == ["whoami"])
    #expect(completion.replacement == "whoami ")
  }

  @Test func extendsToTheCommonPrefixAndListsTheRest() {
    let completion = CommandCompleter.complete("si", knownEmails: emails)
    #expect(completion.candidates == ["signin", "signin-link", "signout", "signup"])
    #expect(completion.replacement == "sign")
    let stuck = CommandCompleter.complete("sign", knownEmails: emails)
    #expect(stuck.replacement == "sign")
  }

  @Test func completesArgumentsByCommand() {
    #expect(CommandCompleter.complete("signin g", knownEmails: emails).replacement == "grace@example.com ")
    #expect(
      CommandCompleter.complete("link ", knownEmails: emails).candidates == ["apple", "email", "google", "phone"])
    #expect(CommandCompleter.complete("link email a", knownEmails: emails).candidates == ["ada@example.com"])
    #expect(CommandCompleter.complete("unlink g", knownEmails: emails).replacement == "google.com ")
    #expect(CommandCompleter.complete("watch o", knownEmails: emails).candidates == ["off", "on"])
    #expect(CommandCompleter.complete("token --force --", knownEmails: emails).candidates == ["--claims", "--reveal"])
    #expect(CommandCompleter.complete("help tok", knownEmails: emails).replacement == "token ")
    #expect(CommandCompleter.complete("whoami x", knownEmails: emails).candidates.isEmpty)
  }
}
