import Foundation
import SignInWire

/// One request as the route table reads it: method, path and query apart, headers with their
/// names lowercased, and the body.
///
/// - Concurrency: `Sendable` value.
struct EmulatorRequest: Sendable {
  let method: String
  let path: Substring
  let query: [String: String]
  let headers: [String: String]
  let body: Data

  init(method: String, target: String, headers: [String: String], body: Data) {
    self.method = method
    self.headers = headers
    self.body = body
    let mark = target.firstIndex(of: "?")
    path = target[..<(mark ?? target.endIndex)]
    query = mark.map { FormEncoding.fields(String(target[target.index(after: $0)...])) } ?? [:]
  }

  /// Whether the headers carry the emulator's owner credential: `Bearer owner` (any case) or a
  /// Google OAuth token (`Bearer ya29.…`), as the Admin SDKs send them in emulator mode.
  var isAdmin: Bool {
    guard let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bearer ") else {
      return false
    }
    let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
    return token.lowercased() == "owner" || token.hasPrefix("ya29.")
  }

  /// Whether a client call names an API key, in the `key` query parameter or the
  /// `X-Goog-Api-Key` header. Any non-empty key will do, as in the Firebase emulator.
  var namesAnAPIKey: Bool { !(query["key"] ?? headers["x-goog-api-key"] ?? "").isEmpty }

  var contentType: String { (headers["content-type"] ?? "").lowercased() }
}
