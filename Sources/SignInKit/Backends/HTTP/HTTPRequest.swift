import Foundation
import SignInHTTP
import SignInWire

/// One HTTP request as a backend builds it: method, URL, headers in the order they are sent,
/// body, and how long to wait for the reply.
///
/// - Concurrency: `Sendable` value. Its description shows the method and URL without the
///   query (which may carry an API key) and never the body (which may carry a password).
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var method: String
  public var url: URL
  public var headers: [(name: String, value: String)]
  public var body: Data
  public var timeout: Duration

  public init(
    method: String = "POST", url: URL, headers: [(name: String, value: String)] = [], body: Data = Data(),
    timeout: Duration = .seconds(30)
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  /// A form POST (`application/x-www-form-urlencoded`) that asks for JSON back, as OAuth token,
  /// revocation, device and introspection endpoints take it.
  package static func form(_ url: URL, _ fields: [(String, String)]) -> HTTPRequest {
    HTTPRequest(
      url: url,
      headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
      body: Data(FormEncoding.encode(fields).utf8))
  }

  /// The value of the first header named `name`, ignoring case.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
    lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.timeout == rhs.timeout
      && lhs.headers.map(\.name) == rhs.headers.map(\.name)
      && lhs.headers.map(\.value) == rhs.headers.map(\.value)
  }

  public var description: String {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.query = nil
    return "HTTPRequest(\(method) \(components?.string ?? "?"), \(body.count) bytes)"
  }
  public var customMirror: Mirror { Mirror(self, children: ["request": description]) }
}

/// An HTTP reply: status, headers (names lowercased) and body.
///
/// - Concurrency: `Sendable` value.
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  public var headers: [String: String]
  public var body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
    self.body = body
  }
}
