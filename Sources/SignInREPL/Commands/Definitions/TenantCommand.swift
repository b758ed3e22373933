import Foundation
import SignInKit

/// `tenant [ID|--project]`: Show the tenant, or switch to another (each keeps its own session).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct TenantCommand: REPLCommand {
  package static let name = "tenant"
  package static let usage = "tenant [ID|--project]"
  package static let summary =
    "Show the tenant, or switch to tenant ID or back to the project's own users (each keeps its own session)."

  /// The tenant to switch to: `.some(nil)` for the project's users, `nil` to only show it.
  package var target: String??
}

extension TenantCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.count <= 1 else { throw Self.usageError }
    guard let argument = arguments.first else {
      target = nil
      return
    }
    if argument == "--project" {
      target = .some(nil)
    } else if !argument.hasPrefix("-") {
      target = .some(argument)
    } else {
      throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["--project"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    guard let target else {
      await session.say(
        "tenant: \(Self.name(of: session.auth.tenantID))", fields: ["tenant": session.auth.tenantID ?? ""])
      return
    }
    let user = try await session.switchTenant(to: target)
    await session.say(
      "switched to \(Self.name(of: target)); "
        + (user.map { "restored \(TranscriptFormatter.who($0))" } ?? "nobody is signed in there"))
  }

  static func name(of tenant: String?) -> String {
    tenant.map { "tenant \($0)" } ?? "the project's own users"
  }
}
