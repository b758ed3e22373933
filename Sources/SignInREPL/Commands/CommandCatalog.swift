/// The REPL's commands, in the order `help` lists them, and the closest name to a typo.
///
/// - Concurrency: stateless, any isolation.
package enum CommandCatalog {
  package static let commands: [any REPLCommand.Type] = [
    StartCommand.self, SignUpCommand.self, SignInCommand.self, AnonymousCommand.self, SendLinkCommand.self,
    SignInLinkCommand.self,
    PhoneCommand.self, PasskeyCommand.self, CustomTokenCommand.self, GoogleCommand.self, AppleCommand.self,
    OAuthCommand.self, LinkCommand.self,
    UpgradeCommand.self, UnlinkCommand.self, ReauthCommand.self,
    RestoreCommand.self, TenantCommand.self, WhoAmICommand.self, TokenCommand.self, RefreshCommand.self,
    ReloadCommand.self,
    ScopesCommand.self, AddScopesCommand.self, AccessTokenCommand.self,
    ProfileCommand.self, ChangeEmailCommand.self, ChangePhoneCommand.self, ChangePasswordCommand.self,
    VerifyEmailCommand.self,
    ApplyCodeCommand.self, CheckCodeCommand.self, VerifyNewEmailCommand.self, ResetPasswordCommand.self,
    ConfirmResetCommand.self, MailboxCommand.self, TextsCommand.self, SecondFactorCommand.self,
    EnrollTOTPCommand.self, UnenrollSecondFactorCommand.self,
    DeleteAccountCommand.self, SignOutCommand.self, StateCommand.self, WatchCommand.self, QuitCommand.self,
    HelpCommand.self,
  ]

  /// The command named `name` (`exit` is `quit`).
  package static func command(named name: String) -> (any REPLCommand.Type)? {
    let name = name == "exit" ? "quit" : name
    return commands.first { $0.name == name }
  }

  /// The command name closest to `typo` by edit distance, when it is close enough to be a typo.
  package static func suggestion(for typo: String) -> String? {
    let typo = typo.lowercased()
    let scored = commands.map { ($0.name, editDistance(typo, $0.name)) }
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
