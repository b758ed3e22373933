import Foundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The emulator's routes: each endpoint of ``FirebaseAPI/all`` on each of its paths, handed to
/// the ``IdentityToolkitService`` (or, for the emulator's web pages, to the page). What HTTP
/// needs is done here once: matching the path (404) and the method (405), App Check, the body's
/// content type, decoding the body (from JSON, the query, or Secure Token's form), and rendering
/// the reply or Firebase's error envelope. Who may call and everything a call means is the
/// service's.
///
/// - Concurrency: `Sendable` value, built once; routes run concurrently.
struct EmulatorRouteTable: Sendable {
  typealias Reply = FirebaseEmulatorRoutes.Reply

  /// What every request's context shares: the service, where links start, and App Check when
  /// the server enforces it.
  struct Environment: Sendable {
    let service: IdentityToolkitService
    /// Which origins are served, and where links start.
    let policy: EmulatorRequestPolicy
    var appCheck: EmulatorAppCheck?
  }

  /// One endpoint on one of its paths.
  struct Route: Sendable {
    let endpoint: any EndpointDescription
    let path: EndpointPath
    let template: PathTemplate
    let serve: @Sendable (EmulatorRequest, ServiceCall, Environment) async throws -> Reply
  }

  private var literal: [Substring: [Route]] = [:]
  private var templated: [Route] = []

  /// Every endpoint with a route, by its method and client path (`POST v1/accounts:signUp`),
  /// for the conformance checks.
  private(set) var served: [String] = []

  /// Routes `endpoint` to the service, on each of its paths.
  mutating func addService<E: EndpointDescription>(_ endpoint: E) {
    add(endpoint) { request, call, environment in
      let body = try Self.body(E.Body.self, of: request, form: endpoint.isForm)
      return Self.render(try await environment.service.handle(endpoint, body, call))
    }
  }

  /// Routes `endpoint` to the web page `page`, on each of its paths.
  mutating func addPage<Body, Reply: WireBody>(
    _ endpoint: Endpoint<Body, Reply>,
    _ page: @escaping @Sendable (Body, EmulatorPageContext) async throws -> Reply
  ) {
    add(endpoint) { request, call, environment in
      let body = try Self.body(Body.self, of: request, form: endpoint.isForm)
      let context = try await environment.service.context(for: call, body: body)
      return Self.render(try await page(body, EmulatorPageContext(service: context, policy: environment.policy)))
    }
  }

  private mutating func add(
    _ endpoint: some EndpointDescription,
    serve: @escaping @Sendable (EmulatorRequest, ServiceCall, Environment) async throws -> Reply
  ) {
    served.append(endpoint.signature)
    for path in endpoint.paths {
      let template = path.emulatorTemplate
      let route = Route(endpoint: endpoint, path: path, template: template, serve: serve)
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
          .methodNotAllowed, "\(FirebaseFailure.printable(request.method)) is not served here")
      }
      // A GET or HEAD makes nothing it names: a web page can send one with no Origin.
      let call = ServiceCall(
        isAdmin: request.isAdmin, namesAnAPIKey: request.namesAnAPIKey, path: route.path, values: values,
        creates: request.method != "GET" && request.method != "HEAD", baseURL: environment.policy.baseURL)
      // The service admits every call itself; asked here too so a caller the path does not take
      // hears that before App Check or the body's decoding, as Google answers.
      try IdentityToolkitService.admit(call)
      if let appCheck = environment.appCheck, route.path.service != .emulator, route.path.callers.takesAPIKey,
        !request.isAdmin
      {
        try appCheck.check(request.headers["x-firebase-appcheck"])
      }
      return try await route.serve(request, call, environment)
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
      throw FirebaseFailure(.notFound, FirebaseFailure.printable(String(path)))
    }
    return found
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
          + "\(FirebaseFailure.printable(request.headers["content-type"] ?? "no content type")))")
    }
    return try Body.decoded(from: request.body, query: request.query)
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

  /// Firebase's error envelope for `error` (``IdentityToolkitService/failure(_:)``).
  static func failure(_ error: any Error) -> Reply {
    IdentityToolkitService.failure(error).reply
  }
}

extension FirebaseFailure {
  /// This failure as the emulator answers it.
  var reply: FirebaseEmulatorRoutes.Reply {
    var reply = FirebaseEmulatorRoutes.Reply(status: status, body: (try? envelope.encoded()) ?? Data("{}".utf8))
    if let retryAfterSeconds { reply.headers.append(.init(name: "Retry-After", value: "\(retryAfterSeconds)")) }
    return reply
  }
}
