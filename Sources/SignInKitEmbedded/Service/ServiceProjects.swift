import Foundation
import SignInConcurrency
import SignInKit
import SignInWire

/// The projects one `signin serve` answers for: the one it started with, and each other project
/// an admin or emulator call names, made on first use with accounts of its own, as the Firebase
/// emulator makes them. Client calls (an API key, no project in the path) reach the served
/// project, as the emulator's do.
///
/// Another project lives in the served one's database, its rows naming it as a tenant's do, so
/// it outlives a restart and opens no file: a hundred projects hold no more descriptors than
/// one. All of them sign with the served project's key.
///
/// - Concurrency: `Sendable`; a lock guards the table of projects, and each project is an actor.
package final class ServiceProjects: Sendable {
  /// The project the server started with.
  package let served: EmbeddedBackend
  private let others = Locked<[String: EmbeddedBackend]>([:])
  private let tenantTables = Locked<[String: ServiceTenants]>([:])
  /// The silent pushes the server would have sent, for every project.
  package let pushes = PushOutbox()
  /// How many other projects one server makes before it refuses more: the emulator's endpoints
  /// need no credential, and each project's rows and tenants weigh on the one database.
  package static let limit = 100
  /// This server's limits: ``limit`` projects, ``ServiceTenants/limit`` tenants per project
  /// (tests pass smaller ones).
  package let projectLimit: Int
  package let tenantLimit: Int

  package init(
    served: EmbeddedBackend, projectLimit: Int = ServiceProjects.limit, tenantLimit: Int = ServiceTenants.limit
  ) {
    self.served = served
    self.projectLimit = projectLimit
    self.tenantLimit = tenantLimit
  }

  /// The project `id`, made now when it is new and `creating`; when not, a new project that is
  /// not kept (in memory, empty), so that a `GET` answers as a new project would and makes
  /// nothing: a web page's `<img>` reaches loopback with no `Origin`, and must not make projects.
  ///
  /// - Throws: `INVALID_PROJECT_ID` for an id that is not one, `QUOTA_EXCEEDED` past
  ///   ``limit``, or a storage error when its folder cannot be opened.
  package func backend(for id: String, creating: Bool = true) throws -> EmbeddedBackend {
    if id == served.configuration.projectID { return served }
    guard Self.isProjectID(id) else {
      throw FirebaseFailure(
        .invalidProjectId,
        "\(FirebaseFailure.printable(id)) is not a project id: use lowercase letters, digits and hyphens, "
          + "at most 63, starting with a letter or digit.")
    }
    if !creating {
      if let existing = others.withLock({ $0[id] }) { return existing }
      return try served.sibling(projectID: id, directory: nil)
    }
    return try others.withLock { others in
      if let existing = others[id] { return existing }
      guard others.count < projectLimit else {
        throw FirebaseFailure(
          .quotaExceeded,
          "this server already holds \(projectLimit) projects besides \(served.configuration.projectID). Restart "
            + "it to begin again, or reuse a project id.")
      }
      let made = try served.project(id)
      others[id] = made
      return made
    }
  }

  /// Whether project `id` exists here: the served one, or one a call made since it started.
  package func holds(_ id: String) -> Bool {
    id == served.configuration.projectID || others.withLock { $0[id] != nil }
  }

  /// The tenants of `project`, one table per project for the server's life (none kept for a
  /// project that is not: see ``backend(for:creating:)``).
  package func tenants(of project: EmbeddedBackend) -> ServiceTenants {
    guard keeps(project) else { return ServiceTenants(project: project, limit: tenantLimit) }
    return tenantTables.withLock { tables in
      if let known = tables[project.configuration.projectID] { return known }
      let made = ServiceTenants(project: project, limit: tenantLimit)
      tables[project.configuration.projectID] = made
      return made
    }
  }

  /// Whether `project` is one this server keeps, not one made for a `GET`.
  private func keeps(_ project: EmbeddedBackend) -> Bool {
    let projectID = project.configuration.projectID
    let kept: EmbeddedBackend? =
      projectID == served.configuration.projectID ? served : others.withLock { $0[projectID] }
    return kept === project
  }

  /// Lowercase letters, digits and hyphens, 1 to 63 of them, starting with a letter or digit:
  /// every Firebase project id, and safe as a folder name.
  package static func isProjectID(_ id: String) -> Bool {
    guard (1...63).contains(id.utf8.count), let first = id.utf8.first, first != UInt8(ascii: "-") else {
      return false
    }
    return id.utf8.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || $0 == UInt8(ascii: "-")
    }
  }
}
