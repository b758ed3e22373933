import Foundation
import SignInKit

/// `profile [--name NAME] [--photo URL]`: Change the display name or photo.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ProfileCommand: REPLCommand {
  package static let name = "profile"
  package static let usage = "profile [--name NAME] [--photo URL]"
  package static let summary = "Change the display name or photo."

  package var name: String? = nil
  package var photo: URL? = nil
}

extension ProfileCommand {
  package init(arguments: [String]) throws(CommandError) {
    var rest = arguments[...]
    while let flag = rest.popFirst() {
      guard let value = rest.popFirst() else { throw Self.usageError }
      switch flag {
      case "--name" where name == nil: name = value
      case "--photo" where photo == nil:
        guard let url = URL(string: value), url.scheme != nil else { throw Self.usageError }
        photo = url
      default: throw Self.usageError
      }
    }
    guard name != nil || photo != nil else { throw Self.usageError }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    guard arguments.last != "--name", arguments.last != "--photo" else { return [] }
    return ["--name", "--photo"].filter { !arguments.contains($0) }
  }

  package func run(in session: isolated REPLSession) async throws {
    let user = try await session.auth.updateProfile(displayName: name, photoURL: photo)
    await session.say("profile: \(user.displayName ?? "(no name)") \(user.photoURL?.absoluteString ?? "")")
  }
}
