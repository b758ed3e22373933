import Foundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The emulator's routes: one handler per endpoint of ``FirebaseAPI/all``, reached on each of the
/// endpoint's paths. Everything a route shares is done here once: matching the path (404) and
/// the method (405), the caller check (an API key: 403; an administrator: 401), the body's
/// content type, decoding the body (from JSON, the query, or Secure Token's form), finding the
/// project and tenant, and rendering the reply or Firebase's error envelope. A handler is
/// `(Body, EmulatorContext) async throws -> Reply`.
///
/// - Concurrency: `Sendable` value, built once; handlers run concurrently.
struct EmulatorRouteTable: Sendable {
  typealias Reply = FirebaseEmulatorRoutes.Reply

  /// What every request's context shares: the projects, where links start, and App Check when
  /// the server enforces it.
  struct Environment: Sendable {
    let projects: EmulatorProjects
    /// Which origins are served, and where links start.
    let policy: EmulatorRequestPolicy
    var appCheck: EmulatorAppCheck?
  }

  /// One endpoint on one of its paths.
  struct Route: Sendable {
    let endpoint: any EndpointDescription
    let path: EndpointPath
    let template: PathTemplate
    let serve: @Sendable (EmulatorRequest, [String: String], Environment) async throws -> Reply
  }

  private var literal: [Substring: [Route]] = [:]
  private var templated: [Route] = []

  /// Every endpoint with a handler, by its method and client path (`POST v1/accounts:signUp`),
  /// for the conformance checks.
  private(set) var served: [String] = []

  /// Adds `handler` for `endpoint`, on each of its paths.
  mutating func add<Body, Reply: WireBody>(
    _ endpoint: Endpoint<Body, Reply>, _ handler: @escaping @Sendable (Body, EmulatorContext) async throws -> Reply
  ) {
    served.append(endpoint.signature)
    for path in endpoint.paths {
      let template = path.emulatorTemplate
      let route = Route(endpoint: endpoint, path: path, template: template) { request, values, environment in
        let body = try Self.body(Body.self, of: request, form: endpoint.isForm)
        let context = try await Self.context(for: request, on: path, values: values, body: body, in: environment)
        return Self.render(try await handler(body, context))
      }
      if template.isLiteral {
        literal[Substring(template.description), default: []].append(route)
      } else {
        templated.append(route)
      }
    }
  }

  /// The reply to `request`. Never throws: every failure is Firebase's error envelope.
  func reply(to request: EmulatorRequest, in environment: Environment) async -> Reply {
    do {
      let candidates = try match(request.path)
      guard let (route, values) = candidates.first(where: { $0.route.endpoint.method.rawValue == request.method })
      else {
        throw FirebaseFailure(
          .methodNotAllowed, "\(EmulatorRequestPolicy.printable(request.method)) is not served here")
      }
      try Self.checkCaller(of: request, on: route.path)
      if let appCheck = environment.appCheck, route.path.service != .emulator, route.path.callers.takesAPIKey,
        !request.isAdmin
      {
        try appCheck.check(request.headers["x-firebase-appcheck"])
      }
      return try await route.serve(request, values, environment)
    } catch {
      return Self.failure(error)
    }
  }

  /// The routes whose path matches, with the placeholders' values. A path with no placeholders
  /// (every client call) is one dictionary lookup; no template can match it as well.
  private func match(_ path: Substring) throws(FirebaseFailure) -> [(route: Route, values: [String: String])] {
    if let routes = literal[path] { return routes.map { ($0, [:]) } }
    var found: [(route: Route, values: [String: String])] = []
    for route in templated {
      if let values = route.template.match(path) { found.append((route, values)) }
    }
    guard !found.isEmpty else {
      throw FirebaseFailure(.notFound, EmulatorRequestPolicy.printable(String(path)))
    }
    return found
  }

  /// Refuses a caller the path does not take: no API key (403, as Google answers it), or no
  /// administrator's credential (401).
  private static func checkCaller(of request: EmulatorRequest, on path: EndpointPath) throws(FirebaseFailure) {
    if path.callers.contains(.anyone) || request.isAdmin { return }
    if path.callers.takesAPIKey {
      guard request.namesAnAPIKey else { throw .missingAPIKey }
      return
    }
    throw FirebaseFailure(.unauthenticated, "admin calls need the header Authorization: Bearer owner")
  }

  // MARK: - Decoding

  /// The body a handler gets: from the query for `GET` and `DELETE` (and a body's query fields),
  /// from Secure Token's form, or from JSON, which a body that is not empty must be.
  private static func body<Body: WireBody>(
    _ type: Body.Type, of request: EmulatorRequest, form: Bool
  ) throws(FirebaseFailure) -> Body {
    if form, !request.body.isEmpty,
      request.contentType.hasPrefix("application/x-www-form-urlencoded") || request.body.first != UInt8(ascii: "{")
    {
      return try Body.decoded(form: request.body)
    }
    if !request.body.isEmpty, !request.contentType.hasPrefix("application/json") {
      throw FirebaseFailure(
        .invalidArgument,
        "send the body as JSON with Content-Type: application/json (got "
          + "\(EmulatorRequestPolicy.printable(request.headers["content-type"] ?? "no content type")))")
    }
    return try Body.decoded(from: request.body, query: request.query)
  }

  /// Who called, for which project and tenant. A tenant is named by the path or, for a client,
  /// by the body's `tenantId`; a client call to a tenant that turned sign-in off is refused here.
  private static func context<Body>(
    for request: EmulatorRequest, on path: EndpointPath, values: [String: String], body: Body,
    in environment: Environment
  ) async throws -> EmulatorContext {
    // A GET or HEAD makes nothing it names: a web page can send one with no Origin.
    let creates = request.method != "GET" && request.method != "HEAD"
    let project =
      try values["project"].map { try environment.projects.backend(for: $0, creating: creates) }
      ?? environment.projects.served
    let named = (body as? any TenantNaming)?.tenantId.flatMap { $0.isEmpty ? nil : $0 }
    var context = EmulatorContext(
      isAdmin: request.isAdmin, isScoped: values["project"] != nil, values: values, project: project,
      tenantID: values["tenant"] ?? named, projects: environment.projects, policy: environment.policy)
    context.creates = creates
    if path.callers.takesAPIKey, !request.isAdmin, try await context.readTenant()?.disableAuth == true {
      throw FirebaseFailure(.projectDisabled)
    }
    return context
  }

  // MARK: - Replies

  /// A handler's reply: its JSON, the action page's text, or a web page (HTML, or a redirect).
  private static func render<Body: WireBody>(_ reply: Body) -> Reply {
    if let page = reply as? EmulatorWebPage {
      if let location = page.location {
        return Reply(
          status: 303, body: Data(), contentType: "text/plain; charset=utf-8",
          headers: [.init(name: "Location", value: location), .init(name: "Cache-Control", value: "no-store")])
      }
      return Reply(
        status: page.status.map(Int.init) ?? 200, body: Data((page.html ?? "").utf8),
        contentType: "text/html; charset=utf-8", headers: EmulatorPageHTML.securityHeaders)
    }
    if let page = reply as? EmulatorActionPage {
      return Reply(
        status: page.status.map(Int.init) ?? 200, body: Data(((page.text ?? "") + "\n").utf8),
        contentType: "text/plain; charset=utf-8")
    }
    return Reply(status: 200, body: (try? reply.encoded()) ?? Data("{}".utf8))
  }

  /// Firebase's error envelope for `error`: the wire failure it carries, a storage error as 503,
  /// anything else as 500.
  static func failure(_ error: any Error) -> Reply {
    let failure: FirebaseFailure
    switch error {
    case let wire as FirebaseFailure: failure = wire
    case let error as AuthError where error.firebaseFailure != nil: failure = error.firebaseFailure!
    default:
      let error = AuthError.wrapping(error)
      failure = FirebaseFailure(error.code == .storage ? .unavailable : .internalError, error.message)
    }
    return failure.reply
  }
}

extension FirebaseFailure {
  /// This failure as the emulator answers it.
  var reply: FirebaseEmulatorRoutes.Reply {
    FirebaseEmulatorRoutes.Reply(status: status, body: (try? envelope.encoded()) ?? Data("{}".utf8))
  }
}
