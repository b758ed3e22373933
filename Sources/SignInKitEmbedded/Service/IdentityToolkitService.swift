import Foundation
import SignInKit
import SignInWire

/// Firebase Authentication's behaviour, endpoint by endpoint: each endpoint of
/// ``FirebaseAPI/all`` (but the emulator's web pages) answered with the wire layer's typed
/// `Body` and `Reply`, over the projects' ``EmbeddedBackend``s. Who may call (an API key or the
/// administrator), which project and tenant a call reaches, a tenant's rules, the conflict
/// replies and the errors are decided here once; a transport only carries the values (the
/// emulator's HTTP routes decode, call ``handle(_:_:_:)`` and encode).
///
/// The handlers are written per endpoint family (``SignInEndpoints``, ``AccountEndpoints``…),
/// with one registration per endpoint (``Registrations/firebase``).
///
/// - Concurrency: `Sendable` value; calls run concurrently, each project being an actor.
package struct IdentityToolkitService: Sendable {
  /// The served project and the others that admin and emulator calls name.
  package let projects: ServiceProjects
  /// What answers each endpoint: Firebase's handlers, or a test's.
  package let registrations: Registrations

  package init(projects: ServiceProjects, registrations: Registrations = .firebase) {
    self.projects = projects
    self.registrations = registrations
  }

  /// A service for `backend`'s project, which makes other projects as calls name them.
  package init(serving backend: EmbeddedBackend, registrations: Registrations = .firebase) {
    self.init(projects: ServiceProjects(served: backend), registrations: registrations)
  }

  /// The reply to `body` sent to `endpoint`.
  ///
  /// - Throws: the failure as Firebase answers it: a caller the path does not take (403 with
  ///   no API key, 401 with no administrator), a tenant that turned sign-in off, and every
  ///   error of the call, an ``AuthError`` as its wire code (storage as `UNAVAILABLE`, anything
  ///   else as `INTERNAL_ERROR`).
  package func handle<E: EndpointDescription>(
    _ endpoint: E, _ body: E.Body, _ call: ServiceCall
  ) async throws(FirebaseFailure) -> E.Reply {
    try Self.admit(call)
    guard let registration = registrations.handlers[endpoint.signature] else {
      throw FirebaseFailure(.notFound, "\(endpoint.signature) is not answered by the service")
    }
    do {
      let context = try await context(for: call, body: body)
      guard let reply = try await registration(body, context) as? E.Reply else {
        throw FirebaseFailure(.internalError, "\(endpoint.signature) answered with another reply type")
      }
      return reply
    } catch {
      throw Self.failure(error)
    }
  }

  /// Refuses a caller the path does not take: no API key (403, as Google answers it), or no
  /// administrator's credential (401).
  package static func admit(_ call: ServiceCall) throws(FirebaseFailure) {
    if call.path.callers.contains(.anyone) || call.isAdmin { return }
    if call.path.callers.takesAPIKey {
      guard call.namesAnAPIKey else { throw .missingAPIKey }
      return
    }
    throw FirebaseFailure(.unauthenticated, "admin calls need the header Authorization: Bearer owner")
  }

  /// Who called, for which project and tenant. A tenant is named by the path or, for a client,
  /// by the body's `tenantId`; a client call to a tenant that turned sign-in off is refused here.
  package func context(for call: ServiceCall, body: some Sendable) async throws -> ServiceContext {
    let project =
      try call.values["project"].map { try projects.backend(for: $0, creating: call.creates) } ?? projects.served
    let named = (body as? any TenantNaming)?.tenantId.flatMap { $0.isEmpty ? nil : $0 }
    var context = ServiceContext(
      isAdmin: call.isAdmin, isScoped: call.values["project"] != nil, values: call.values, project: project,
      tenantID: call.values["tenant"] ?? named, projects: projects, baseURL: call.baseURL, creates: call.creates)
    if call.path.callers.takesAPIKey, !call.isAdmin, try await context.readTenant()?.disableAuth == true {
      throw FirebaseFailure(.projectDisabled)
    }
    return context
  }

  /// The wire failure for `error`: the one it carries, a storage error as `UNAVAILABLE` (503),
  /// anything else as `INTERNAL_ERROR`.
  package static func failure(_ error: any Error) -> FirebaseFailure {
    switch error {
    case let wire as FirebaseFailure: return wire
    case let error as AuthError where error.firebaseFailure != nil: return error.firebaseFailure!
    default:
      let error = AuthError.wrapping(error)
      return FirebaseFailure(error.code == .storage ? .unavailable : .internalError, error.message)
    }
  }
}
