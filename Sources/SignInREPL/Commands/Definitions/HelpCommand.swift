import Foundation
import SignInKit

/// `help [COMMAND]`: List commands, or explain one.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct HelpCommand: REPLCommand {
  package static let name = "help"
  package static let usage = "help [COMMAND]"
  package static let summary = "List commands, or explain one."

  package var topic: String? = nil
}

extension HelpCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.count <= 1 else { throw Self.usageError }
    if let word = arguments.first {
      guard let command = CommandCatalog.command(named: word.lowercased()) else {
        throw .unknownTopic(word, suggestion: CommandCatalog.suggestion(for: word))
      }
      topic = command.name
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? CommandCatalog.commands.map { $0.name } : []
  }

  package func run(in session: isolated REPLSession) async throws {
    if let topic, let command = CommandCatalog.command(named: topic) {
      await session.say("\(command.usage)\n" + Self.wrapped(command.summary, indent: 2))
    } else {
      await session.say(Self.overview)
    }
  }

  /// The commands by what they are for, in the order a newcomer meets them.
  static let groups: [(title: String, commands: [any REPLCommand.Type])] = [
    (
      "Sign in",
      [
        StartCommand.self, SignUpCommand.self, SignInCommand.self, AnonymousCommand.self, SendLinkCommand.self,
        SignInLinkCommand.self, PhoneCommand.self, PasskeyCommand.self, GoogleCommand.self, AppleCommand.self,
        OAuthCommand.self, CustomTokenCommand.self,
      ]
    ),
    (
      "The session",
      [
        WhoAmICommand.self, StateCommand.self, WatchCommand.self, TokenCommand.self, RefreshCommand.self,
        ReloadCommand.self, RestoreCommand.self, TenantCommand.self, SignOutCommand.self,
      ]
    ),
    (
      "The account",
      [
        ProfileCommand.self, ChangeEmailCommand.self, ChangePhoneCommand.self, ChangePasswordCommand.self,
        VerifyEmailCommand.self, VerifyNewEmailCommand.self, LinkCommand.self, UpgradeCommand.self,
        UnlinkCommand.self, ReauthCommand.self, SecondFactorCommand.self, DeleteAccountCommand.self,
      ]
    ),
    (
      "Emails and texts",
      [
        MailboxCommand.self, TextsCommand.self, ResetPasswordCommand.self, ConfirmResetCommand.self,
        ApplyCodeCommand.self, CheckCodeCommand.self,
      ]
    ),
    ("Google APIs", [ScopesCommand.self, AddScopesCommand.self, AccessTokenCommand.self]),
    ("This program", [HelpCommand.self, QuitCommand.self]),
  ]

  /// Older names that still work, said once instead of listed twice.
  static let aliases: [any REPLCommand.Type] = [EnrollTOTPCommand.self, UnenrollSecondFactorCommand.self]

  /// `help` alone: each group, one line per command (its name and what it does, wrapped at
  /// word boundaries), then how to learn more.
  static let overview: String = {
    var lines: [String] = []
    for group in groups {
      lines.append("\(group.title):")
      for command in group.commands {
        let name = "  " + command.name.padding(toLength: 18, withPad: " ", startingAt: 0)
        lines.append(wrapped(gist(of: command.summary), indent: name.count, first: name))
      }
    }
    lines.append(
      wrapped(
        "Type 'help COMMAND' for its options. \(aliases.map { "'\($0.name)'" }.joined(separator: " and ")) are older "
          + "names of 'mfa enrol totp' and 'mfa remove'.", indent: 0))
    return lines.joined(separator: "\n")
  }()

  /// The first clause of `summary`, up to its first `;` or sentence end outside parentheses.
  static func gist(of summary: String) -> String {
    var depth = 0
    var index = summary.startIndex
    while index < summary.endIndex {
      let character = summary[index]
      let next = summary.index(after: index)
      if character == "(" { depth += 1 }
      if character == ")" { depth -= 1 }
      if depth == 0, character == ";" || character == ".", next < summary.endIndex, summary[next] == " " {
        return String(summary[..<index]) + "."
      }
      index = next
    }
    return summary
  }

  /// `text` wrapped at word boundaries to 96 columns, each line after the first indented by
  /// `indent` spaces; the first starts with `first`.
  static func wrapped(_ text: String, indent: Int, first: String? = nil) -> String {
    let width = 96
    var lines: [String] = []
    var line = first ?? String(repeating: " ", count: indent)
    var lineHasWord = false
    for word in text.split(separator: " ") {
      if lineHasWord, line.count + 1 + word.count > width {
        lines.append(line)
        line = String(repeating: " ", count: indent)
        lineHasWord = false
      }
      line += (lineHasWord ? " " : "") + word
      lineHasWord = true
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
