import Foundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The Firebase Auth emulator's API over an ``EmbeddedBackend``: a request's method, target and
/// body in, a status and a body out, for every endpoint of the wire layer's list (Identity
/// Toolkit v1 and v2, their v3 aliases, Secure Token, the administrator's calls, the emulator's
/// own `/emulator/…` routes). Failures use Firebase's error envelope with Firebase's codes
/// (`EMAIL_EXISTS`, `INVALID_ID_TOKEN`…), so a client written for Firebase reads them unchanged.
///
/// No sockets here: ``FirebaseEmulatorServer`` reads requests and writes replies.
///
/// - Concurrency: `Sendable` value; calls may run concurrently (the backend is an actor).
package struct FirebaseEmulatorRoutes: Sendable {
  /// A reply: the status and the JSON body.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Reply: Sendable, Equatable {
    package var status: Int
    package var body: Data
    /// `application/json`, or `text/plain; charset=utf-8` for the action page.
    package var contentType = "application/json"
    /// Headers beyond the status line's and the body's (CORS).
    package var headers: [EmulatorRequestPolicy.Header] = []
  }

  /// The served project: the one client calls reach.
  package let backend: EmbeddedBackend
  /// Which hosts and origins are served, and where links point.
  package let policy: EmulatorRequestPolicy
  /// What every call means, over the served project and the others admin and emulator calls
  /// have named.
  let service: IdentityToolkitService
  /// App Check, when the server enforces it on client calls.
  let appCheck: EmulatorAppCheck?

  /// - Parameters:
  ///   - backend: the backend the calls reach.
  ///   - policy: which hosts and origins are served; by default loopback only, on the emulator's
  ///     port 9099.
  ///   - appCheckSecret: when set, client calls must carry an App Check token signed with it
  ///     (``EmulatorAppCheck``).
  package init(
    backend: EmbeddedBackend, policy: EmulatorRequestPolicy = .loopback(port: 9099), appCheckSecret: String? = nil
  ) {
    self.backend = backend
    self.policy = policy
    service = IdentityToolkitService(serving: backend)
    appCheck = appCheckSecret.map {
      EmulatorAppCheck(secret: $0, projectID: backend.configuration.projectID, now: backend.now)
    }
  }

  /// Routes with smaller caps on the projects and tenants calls may make, for tests of the caps.
  init(backend: EmbeddedBackend, projectLimit: Int, tenantLimit: Int) {
    self.backend = backend
    policy = .loopback(port: 9099)
    service = IdentityToolkitService(
      projects: ServiceProjects(served: backend, projectLimit: projectLimit, tenantLimit: tenantLimit))
    appCheck = nil
  }

  /// The routes every server answers, one per endpoint (``EmulatorRouteTable/firebase``).
  static let table = EmulatorRouteTable.firebase

  /// The reply to one request. Never throws: every failure is a Firebase error reply.
  ///
  /// - Parameters:
  ///   - method: the HTTP method.
  ///   - target: the request target: path and query.
  ///   - headers: the request's headers, names lowercased. `Authorization: Bearer owner` (any
  ///     case, or a `Bearer ya29.…` token) makes the call an administrator's, as the Admin SDKs
  ///     send it in emulator mode. `Host` and `Origin` are checked first (``policy``): a foreign
  ///     one is refused before anything else happens.
  ///   - body: the request body; one that is not empty must be JSON (`Content-Type:
  ///     application/json`), except the Secure Token form.
  package func reply(method: String, target: String, headers: [String: String] = [:], body: Data) async -> Reply {
    switch policy.decide(method: method, headers: headers) {
    case .refuse(let status, let message):
      let envelope = ErrorEnvelope(status: status, message: message, statusName: nil)
      return Reply(status: status, body: (try? envelope.encoded()) ?? Data("{}".utf8))
    case .preflight(let headers):
      return Reply(status: 204, body: Data(), contentType: "text/plain; charset=utf-8", headers: headers)
    case .serve(let cors):
      let request = EmulatorRequest(method: method, target: target, headers: headers, body: body)
      var reply = await Self.table.reply(
        to: request,
        in: EmulatorRouteTable.Environment(service: service, policy: policy, appCheck: appCheck))
      reply.headers += cors
      return reply
    }
  }
}
