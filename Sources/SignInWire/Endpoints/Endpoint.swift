/// One call of the Firebase Auth API, described once for the client and the emulator: its HTTP
/// method, the paths it answers on (the first is the one the client calls; the others are the
/// v3 alias and an administrator's project- and tenant-scoped forms), the body it takes and the
/// reply it gives.
///
/// `FirebaseBackend` sends a ``Body`` to an endpoint and reads a ``Reply``; the emulator's route
/// table matches requests against every endpoint of ``FirebaseAPI/all`` and hands the decoded
/// body to one handler per endpoint; a conformance suite and Google's discovery documents check
/// both against this description.
///
/// - Concurrency: `Sendable` value.
package struct Endpoint<Body: WireBody, Reply: WireBody>: EndpointDescription {
  package let method: HTTPMethod
  package let paths: [EndpointPath]
  /// Whether the body is a form (`application/x-www-form-urlencoded`), as Secure Token's is;
  /// the emulator takes JSON there too.
  package let isForm: Bool

  package init(_ method: HTTPMethod, _ paths: [EndpointPath], isForm: Bool = false) {
    precondition(!paths.isEmpty, "an endpoint answers on at least one path")
    self.method = method
    self.paths = paths
    self.isForm = isForm
  }

  package var bodyType: any WireBody.Type { Body.self }
  package var replyType: any WireBody.Type { Reply.self }
}

/// An ``Endpoint`` with its body and reply types erased: what the endpoint list, the route table
/// and the conformance checks walk.
///
/// - Concurrency: `Sendable`.
package protocol EndpointDescription: Sendable {
  /// What the caller sends.
  associatedtype Body: WireBody
  /// What the endpoint answers.
  associatedtype Reply: WireBody
  var method: HTTPMethod { get }
  var paths: [EndpointPath] { get }
  var isForm: Bool { get }
  var bodyType: any WireBody.Type { get }
  var replyType: any WireBody.Type { get }
}

extension EndpointDescription {
  /// The path the client calls, as a name for messages and tests: `v1/accounts:signUp`.
  package var name: String { paths[0].template.description }

  /// `POST v1/accounts:signUp`.
  package var signature: String { "\(method.rawValue) \(name)" }
}

/// The HTTP methods the API uses.
///
/// - Concurrency: `Sendable` value.
package enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
  case get = "GET"
  case post = "POST"
  case patch = "PATCH"
  case delete = "DELETE"

  /// Whether the body is read from the query (`GET`, `DELETE`).
  package var takesQueryOnly: Bool { self == .get || self == .delete }
}
