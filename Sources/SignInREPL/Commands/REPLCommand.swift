import Foundation
import SignInKit
import SignInKitFlows

/// One command of the `signin` REPL, in one place: its name, usage line and help, how its words
/// parse (``init(arguments:)``), what Tab offers after it, whether its line holds a secret, and
/// what it does (``run(in:)``). ``CommandCatalog/commands`` lists every command; help, completion,
/// parsing and dispatch all read that list.
///
/// - Concurrency: `Sendable` values; ``run(in:)`` runs isolated to the session, one command at a
///   time.
package protocol REPLCommand: Sendable, Equatable {
  /// The word that starts it (`signup`).
  static var name: String { get }
  /// The usage line, shown by `help` and after a misuse (`signup EMAIL`).
  static var usage: String { get }
  /// One line of help.
  static var summary: String { get }

  /// The command from the words after its name.
  ///
  /// - Throws: ``CommandError/usage(_:)`` with ``usage`` when they are wrong.
  init(arguments: [String]) throws(CommandError)

  /// What Tab offers for the next word, after `arguments` (the words typed after the name).
  static func completions(after arguments: [String], knownEmails: [String]) -> [String]

  /// Whether the line holds a secret (an identity token, a client secret, a one-time code that
  /// proves access to the mailbox), so it must not be kept in history.
  var carriesSecret: Bool { get }

  /// Runs it; prompts and output go through `session`.
  func run(in session: isolated REPLSession) async throws
}

extension REPLCommand {
  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] { [] }

  package var carriesSecret: Bool { false }

  /// The misuse error of this command: its usage line.
  static var usageError: CommandError { .usage(usage) }

  /// No arguments.
  static func none(_ arguments: [String]) throws(CommandError) {
    guard arguments.isEmpty else { throw usageError }
  }

  /// Exactly one argument, not a flag.
  static func one(_ arguments: [String]) throws(CommandError) -> String {
    guard arguments.count == 1, !arguments[0].isEmpty, !arguments[0].hasPrefix("--") else { throw usageError }
    return arguments[0]
  }

  /// Exactly one argument, an email address.
  static func email(_ arguments: [String]) throws(CommandError) -> String {
    let value = try one(arguments)
    guard FieldChecks.isEmail(value) else {
      throw .invalidArgument(
        "That is not an email address: give one such as ada@example.com. Nothing was asked or sent.", usage: usage)
    }
    return value
  }
}

extension REPLCommand {
  /// Whether `other` is the same command with the same arguments.
  package func isSame(as other: any REPLCommand) -> Bool { (other as? Self) == self }
}
