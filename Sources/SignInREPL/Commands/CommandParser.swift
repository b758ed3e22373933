import Foundation
import SignInKit

/// Turns words into a checked ``REPLCommand``: the right number of arguments, known flags,
/// well-formed values, or a ``CommandError`` that shows the usage line.
///
/// - Concurrency: stateless functions, any isolation.
package enum CommandParser {
  /// Every command on `line` (separated by `;`), parsed.
  /// - Throws: the first ``CommandError``; nothing on the line runs then.
  package static func parse(line: String) throws(CommandError) -> [REPLCommand] {
    var commands: [REPLCommand] = []
    for words in try CommandLexer.commands(in: line) {
      commands.append(try parse(words: words))
    }
    return commands
  }

  /// One command from its words (the first is the command's name).
  package static func parse(words: [String]) throws(CommandError) -> REPLCommand {
    guard let first = words.first else { throw .usage("help [COMMAND]") }
    let name = first.lowercased()
    guard let entry = CommandCatalog.entry(named: name) else {
      throw .unknownCommand(first, suggestion: CommandCatalog.suggestion(for: name))
    }
    let arguments = Array(words.dropFirst())
    let usage = CommandError.usage(entry.usage)

    func none(_ command: REPLCommand) throws(CommandError) -> REPLCommand {
      guard arguments.isEmpty else { throw usage }
      return command
    }
    func one() throws(CommandError) -> String {
      guard arguments.count == 1, !arguments[0].isEmpty, !arguments[0].hasPrefix("--") else {
        throw usage
      }
      return arguments[0]
    }
    func email() throws(CommandError) -> String {
      let value = try one()
      guard value.contains("@") else { throw usage }
      return value
    }

    switch entry.name {
    case "signup": return .signUp(email: try email())
    case "signin": return .signIn(email: try email())
    case "anonymous": return try none(.anonymous)
    case "custom-token": return .customToken(try one())
    case "google":
      var options = GoogleOptions()
      var rest = arguments[...]
      while let flag = rest.popFirst() {
        if flag == "--device", !options.device {
          options.device = true
          continue
        }
        guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw usage }
        switch flag {
        case "--issuer" where options.issuer == nil && value.hasPrefix("http"): options.issuer = value
        case "--client-id" where options.clientID == nil: options.clientID = value
        case "--client-secret" where options.clientSecret == nil: options.clientSecret = value
        case "--device-endpoint" where options.deviceEndpoint == nil && value.hasPrefix("http"):
          options.deviceEndpoint = URL(string: value)
        default: throw usage
        }
      }
      return .google(options)
    case "apple":
      switch arguments.count {
      case 0: return .apple()
      case 4:
        let pairs = Dictionary(
          uniqueKeysWithValues: [(arguments[0], arguments[1]), (arguments[2], arguments[3])].map { ($0.0, $0.1) })
        guard Set(pairs.keys) == ["--id-token", "--nonce"], let token = pairs["--id-token"],
          let nonce = pairs["--nonce"]
        else { throw usage }
        return .apple(idToken: token, rawNonce: nonce)
      default: throw usage
      }
    case "link":
      switch (arguments.first?.lowercased(), arguments.count) {
      case ("email", 2) where arguments[1].contains("@"): return .linkEmail(arguments[1])
      case ("email", 3) where arguments[1].contains("@"): return .linkEmailLink(email: arguments[1], link: arguments[2])
      case ("google", 1): return .linkProvider(.google)
      case ("apple", 1): return .linkProvider(.apple)
      default: throw usage
      }
    case "unlink":
      let provider = try one().lowercased()
      switch provider {
      case "google", "google.com": return .unlink(.google)
      case "apple", "apple.com": return .unlink(.apple)
      case "password", "email": return .unlink(.password)
      default: throw usage
      }
    case "restore": return try none(.restore)
    case "whoami": return try none(.whoami)
    case "token":
      let flags = Set(arguments)
      guard flags.isSubset(of: ["--force", "--claims", "--reveal"]), flags.count == arguments.count
      else { throw usage }
      return .token(
        force: flags.contains("--force"), claims: flags.contains("--claims"),
        reveal: flags.contains("--reveal"))
    case "refresh": return try none(.refresh)
    case "reload": return try none(.reload)
    case "profile":
      var name: String?
      var photo: URL?
      var rest = arguments[...]
      while let flag = rest.popFirst() {
        guard let value = rest.popFirst() else { throw usage }
        switch flag {
        case "--name" where name == nil: name = value
        case "--photo" where photo == nil:
          guard let url = URL(string: value), url.scheme != nil else { throw usage }
          photo = url
        default: throw usage
        }
      }
      guard name != nil || photo != nil else { throw usage }
      return .profile(name: name, photo: photo)
    case "email": return .changeEmail(try email())
    case "password": return try none(.changePassword)
    case "verify-email": return try none(.verifyEmail)
    case "apply-code": return .applyCode(try one())
    case "check-code": return .checkCode(try one())
    case "totp-enroll":
      guard arguments.count <= 1 else { throw usage }
      return .enrollTOTP(name: arguments.first)
    case "totp-unenroll": return .unenrollSecondFactor(try one())
    case "verify-new-email": return .verifyNewEmail(try email())
    case "send-link":
      switch arguments.count {
      case 1: return .sendSignInLink(email: try email(), continueURL: nil)
      case 3 where arguments[1] == "--continue" && arguments[0].contains("@"):
        guard let url = URL(string: arguments[2]), url.scheme?.hasPrefix("http") == true else { throw usage }
        return .sendSignInLink(email: arguments[0], continueURL: url)
      default: throw usage
      }
    case "signin-link":
      guard arguments.count == 2, arguments[0].contains("@") else { throw usage }
      return .signInWithLink(email: arguments[0], link: arguments[1])
    case "reset-password": return .resetPassword(email: try email())
    case "confirm-reset": return .confirmReset(code: try one())
    case "mailbox":
      guard arguments.count <= 1 else { throw usage }
      return .mailbox(email: arguments.first)
    case "delete-account": return try none(.deleteAccount)
    case "signout": return try none(.signOut)
    case "state": return try none(.state)
    case "watch":
      switch arguments.map({ $0.lowercased() }) {
      case ["on"]: return .watch(true)
      case ["off"]: return .watch(false)
      case ["users", "on"]: return .watchUsers(true)
      case ["users", "off"]: return .watchUsers(false)
      default: throw usage
      }
    case "quit": return try none(.quit)
    default:  // help
      guard arguments.count <= 1 else { throw usage }
      if let topic = arguments.first, CommandCatalog.entry(named: topic.lowercased()) == nil {
        throw .unknownTopic(topic, suggestion: CommandCatalog.suggestion(for: topic))
      }
      return .help(arguments.first?.lowercased())
    }
  }
}
