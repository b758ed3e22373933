import Foundation
import SignInKit

/// `watch on|off | watch users on|off`: Print every state change and event as it happens; or, with users, the signed-in user when it changes.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct WatchCommand: REPLCommand {
  package static let name = "watch"
  package static let usage = "watch on|off | watch users on|off"
  package static let summary =
    "Print every state change and event as it happens; or, with users, the signed-in user when it changes."

  package let users: Bool
  package let on: Bool
}

extension WatchCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch arguments.map({ $0.lowercased() }) {
    case ["on"]: (users, on) = (false, true)
    case ["off"]: (users, on) = (false, false)
    case ["users", "on"]: (users, on) = (true, true)
    case ["users", "off"]: (users, on) = (true, false)
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["on", "off"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    if users {
      await session.renderer.setWatchingUsers(on)
      await session.say(on ? "watching the signed-in user" : "not watching the signed-in user")
    } else {
      await session.renderer.setWatching(on)
      await session.say(on ? "watching state changes" : "not watching")
    }
  }
}
