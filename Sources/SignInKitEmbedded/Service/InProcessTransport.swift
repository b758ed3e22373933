import Foundation
import SignInKit
import SignInWire

/// `FirebaseBackend`'s calls handed to an ``IdentityToolkitService`` in the same process: the
/// same typed bodies and replies as over HTTP, the same failures, and no JSON or socket between.
///
/// A call on a client's path is an app's (it names an API key); one on an administrator's path
/// is the administrator's, as the Admin SDKs' calls to the emulator are.
///
/// - Concurrency: `Sendable` value; calls run concurrently, each project being an actor.
package struct InProcessTransport: IdentityToolkitTransport {
  package let service: IdentityToolkitService
  /// Where the service's links start; an in-process service has no address of its own.
  package var baseURL = URL(string: "http://127.0.0.1:9099")!

  package init(service: IdentityToolkitService) {
    self.service = service
  }

  package func send<E: EndpointDescription>(
    _ endpoint: E, _ body: E.Body, on path: EndpointPath, placeholders: [String: String]
  ) async throws -> E.Reply {
    // The values the path holds, as a route reads them off a request's path.
    var values: [String: String] = [:]
    for case .placeholder(let name) in path.template.pieces {
      values[name] = placeholders[name]
    }
    let call = ServiceCall(
      isAdmin: path.callers.needsAdministrator, namesAnAPIKey: path.callers.takesAPIKey,
      path: path, values: values, creates: endpoint.method != .get, baseURL: baseURL)
    do throws(FirebaseFailure) {
      return try await service.handle(endpoint, body, call)
    } catch  where error.code == .unavailable {
      // In this process the service is unavailable only when its data folder is: the store's
      // own error, which HTTP can only carry as a 503, goes back as the store gave it.
      throw AuthError(.storage, error.detail ?? error.message, serverMessage: error.message)
    } catch {
      var failure = AuthError(error)
      // The wait counts from the served project's clock, as a client's would from the reply.
      failure.retryAfter = error.retryAfterSeconds.map {
        service.projects.served.now().addingTimeInterval(Double($0))
      }
      throw failure
    }
  }
}

extension FirebaseBackend {
  /// A client of `backend`'s project through the identity service in this process: the calls
  /// `FirebaseBackend` makes over HTTP, handed over as values.
  ///
  /// - Parameter tenantID: the tenant it signs users in to, or `nil` for the project's own.
  package static func inProcess(_ backend: EmbeddedBackend, tenantID: String? = nil) throws -> FirebaseBackend {
    var client = try FirebaseBackend(
      apiKey: "in-process", projectID: backend.configuration.projectID, environment: [:])
    client.tenantID = tenantID
    client.inProcess = InProcessTransport(service: IdentityToolkitService(serving: backend))
    return client
  }
}
