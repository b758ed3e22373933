import Foundation
import SignInWire

/// Who may talk to `signin serve`, decided from a request's headers before any work: what keeps
/// a web page out of a server on loopback.
///
/// - **Host.** A page served from a name that rebinds to 127.0.0.1 (DNS rebinding) sends its own
///   name as `Host`. Only loopback names (`127.0.0.1`, `localhost`, `[::1]`, any port) and the
///   host of ``publicURL`` are served; any other `Host` gets a 421 before routing.
/// - **Origin.** A browser names the page that sent a cross-origin request in `Origin`. Loopback
///   origins (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*` and their `https://`
///   forms: where browser test suites and dev servers run) and ``allowedOrigins`` are served and get CORS headers; any other origin gets a
///   403, so a cross-site `text/plain` POST (which a browser sends without a preflight) cannot
///   sign up, send codes or trip a victim's login throttle.
/// - **Preflight.** An `OPTIONS` request from an allowed origin is answered with the methods and
///   headers the Firebase JS SDK sends.
///
/// Links the server makes (the admin API's `oobLink`) start with ``baseURL``: the address the
/// server listens on, or ``publicURL``; never what a request's `Host` says.
///
/// - Concurrency: `Sendable` value; a pure function of its settings and a request's headers.
package struct EmulatorRequestPolicy: Sendable, Equatable {
  /// Where clients reach the server when it is not `http://127.0.0.1:PORT` (a tunnel, a
  /// container's published port): links start with it, and its host is served.
  package var publicURL: URL?
  /// Origins served beyond the loopback ones, as `scheme://host[:port]`.
  package var allowedOrigins: Set<String>
  /// The port the server listens on.
  package var port: UInt16

  /// What the CORS preflight allows: the methods the emulator's API uses, and the headers the
  /// Firebase JS SDK and the Admin SDKs send.
  static let allowedMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
  static let allowedHeaders =
    "authorization, content-type, x-client-version, x-firebase-gmpid, x-firebase-client, x-firebase-appcheck, "
    + "x-firebase-locale, x-goog-api-key, x-goog-api-client, x-ios-bundle-identifier, x-android-package, "
    + "x-android-cert"

  /// - Throws: ``PolicyError`` for a public URL that is not `http(s)://host[:port]` or an origin
  ///   that is not `scheme://host[:port]`.
  package init(port: UInt16, publicURL: URL? = nil, allowedOrigins: [String] = []) throws {
    self.port = port
    if let publicURL {
      guard let scheme = publicURL.scheme?.lowercased(), ["http", "https"].contains(scheme),
        let host = publicURL.host, !host.isEmpty
      else {
        throw PolicyError(
          "--public-url \(publicURL.absoluteString) is not an http(s) URL with a host, such as https://auth.example.test."
        )
      }
    }
    self.publicURL = publicURL
    self.allowedOrigins = Set(
      try allowedOrigins.map { origin in
        guard let normalized = Self.normalizedOrigin(origin) else {
          throw PolicyError(
            "--allow-origin \(origin) is not an origin (scheme://host[:port], no path), such as http://localhost:5173.")
        }
        return normalized
      })
  }

  /// Loopback only, on `port`: what a server with no public URL and no extra origins serves.
  package static func loopback(port: UInt16) -> EmulatorRequestPolicy {
    EmulatorRequestPolicy(port: port, publicURL: nil, origins: [])
  }

  private init(port: UInt16, publicURL: URL?, origins: Set<String>) {
    self.port = port
    self.publicURL = publicURL
    self.allowedOrigins = origins
  }

  /// The start of the links the server makes: ``publicURL`` or `http://127.0.0.1:PORT`.
  package var baseURL: URL {
    publicURL ?? URL(string: "http://127.0.0.1:\(port)")!
  }

  /// What to do with a request, decided from its method and headers (names lowercased).
  ///
  /// - Concurrency: `Sendable` value.
  package enum Decision: Sendable, Equatable {
    /// Serve it; `corsHeaders` go on the reply (empty without an `Origin`).
    case serve(corsHeaders: [Header])
    /// Answer a preflight at once: 204 with these headers.
    case preflight([Header])
    /// Refuse it at once with this status and Firebase error message.
    case refuse(status: Int, message: String)
  }

  /// A reply header.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Header: Sendable, Equatable {
    package var name: String
    package var value: String
  }

  package func decide(method: String, headers: [String: String]) -> Decision {
    if let host = headers["host"], !isServedHost(host) {
      return .refuse(
        status: 421,
        message: FirebaseFailure(
          .permissionDenied,
          "this server answers requests for 127.0.0.1, localhost or [::1] only, not "
            + "\(FirebaseFailure.printable(host)); a page on another name cannot reach it. Start signin serve with "
            + "--public-url for another name."
        ).message)
    }
    guard let origin = headers["origin"] else {
      return .serve(corsHeaders: [])
    }
    guard let normalized = Self.normalizedOrigin(origin), isAllowed(origin: normalized) else {
      return .refuse(
        status: 403,
        message: FirebaseFailure(
          .permissionDenied,
          "requests from the origin \(FirebaseFailure.printable(origin)) are refused; loopback origins are allowed, "
            + "others with signin serve --allow-origin ORIGIN."
        ).message)
    }
    let cors = [Header(name: "Access-Control-Allow-Origin", value: origin), Header(name: "Vary", value: "Origin")]
    guard method == "OPTIONS" else { return .serve(corsHeaders: cors) }
    return .preflight(
      cors + [
        Header(name: "Access-Control-Allow-Methods", value: Self.allowedMethods),
        Header(name: "Access-Control-Allow-Headers", value: Self.allowedHeaders),
        Header(name: "Access-Control-Max-Age", value: "600"),
      ])
  }

  /// Whether `host` (a `Host` header: a name or address and an optional port) is one this server
  /// answers for.
  func isServedHost(_ host: String) -> Bool {
    guard let name = Self.hostName(of: host) else { return false }
    return Self.isLoopback(name) || name == publicURL?.host?.lowercased()
  }

  /// Whether pages on `origin` (normalized: `scheme://host[:port]`, lowercased) may call this
  /// server: loopback ones and ``allowedOrigins``.
  func isAllowed(origin: String) -> Bool {
    if allowedOrigins.contains(origin) { return true }
    // Loopback pages over http or https (a dev server with a local certificate).
    for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
      guard let host = Self.hostName(of: String(origin.dropFirst(scheme.count))) else { return false }
      return Self.isLoopback(host)
    }
    return false
  }

  package static func isLoopback(_ name: String) -> Bool {
    ["127.0.0.1", "localhost", "[::1]"].contains(name)
  }

  /// The lowercased name of `authority` (`host`, `host:port`, `[v6]` or `[v6]:port`), or `nil`
  /// when it is not shaped like one: a port must be digits only.
  package static func hostName(of authority: String) -> String? {
    let authority = authority.lowercased()
    let name: Substring
    let port: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      name = authority[...close]
      let rest = authority[authority.index(after: close)...]
      guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
      port = rest.isEmpty ? nil : rest.dropFirst()
    } else {
      let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      name = parts[0]
      port = parts.count > 1 ? parts[1] : nil
    }
    if let port, port.isEmpty || port.count > 5 || !port.allSatisfy({ ("0"..."9").contains($0) }) { return nil }
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || ".-_[]:".contains($0) }) else { return nil }
    return String(name)
  }

  /// `scheme://host[:port]`, lowercased, or `nil` when `origin` is not one (a path, a query,
  /// `null`).
  package static func normalizedOrigin(_ origin: String) -> String? {
    let origin = origin.lowercased()
    guard let range = origin.range(of: "://") else { return nil }
    let scheme = origin[..<range.lowerBound]
    let authority = String(origin[range.upperBound...])
    guard ["http", "https"].contains(scheme), !authority.contains("/"), hostName(of: authority) != nil else {
      return nil
    }
    return origin
  }

}

/// A `signin serve` setting that cannot be used; the message says what to pass instead.
///
/// - Concurrency: `Sendable` value.
package struct PolicyError: Error, Equatable, CustomStringConvertible {
  package let message: String
  init(_ message: String) { self.message = message }
  package var description: String { message }
}
