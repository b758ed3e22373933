import Foundation
import SignInKit
import SignInKitEmbedded
import SignInWire

@testable import SignInEmulator

/// An ``HTTPTransport`` that hands each request to an emulator route table, as the server would
/// after reading it off a socket: the client and the emulator meet with nothing in between.
struct TableTransport: HTTPTransport {
  let table: EmulatorRouteTable
  let environment: EmulatorRouteTable.Environment

  /// Routes to Firebase's handlers, or to `registrations` (a test's own handlers, and the
  /// emulator's pages for the endpoints they leave).
  init(_ registrations: IdentityToolkitService.Registrations = .firebase, backend: EmbeddedBackend) {
    table = .routing(registrations)
    environment = .init(
      service: IdentityToolkitService(serving: backend, registrations: registrations), policy: .loopback(port: 9099))
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let target = (components?.percentEncodedPath ?? "") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
    components = nil
    let headers = Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
    let reply = await table.reply(
      to: EmulatorRequest(method: request.method, target: target, headers: headers, body: request.body),
      in: environment)
    var replyHeaders = ["content-type": reply.contentType]
    for header in reply.headers { replyHeaders[header.name.lowercased()] = header.value }
    return HTTPResponse(status: reply.status, headers: replyHeaders, body: reply.body)
  }
}
