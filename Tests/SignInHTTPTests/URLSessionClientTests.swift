import Foundation
import SignInHTTP
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The URLSession exchange under `URLSessionTransport`: a reply of any status, and each way it
/// can end without one.
@Suite(.timeLimit(.minutes(2)))
struct URLSessionClientTests {
  let client = URLSessionClient(session: .shared)

  @Test func aReplyOfAnyStatusComesBackWithItsHeadersAndBody() async throws {
    let server = try PollingHTTPServer { PollingHTTPServerTests.echo($0) }
    defer { server.stop() }
    let reply = try await client.send(
      method: "POST", url: URL(string: "http://127.0.0.1:\(server.port)/missing")!,
      headers: [("Content-Type", "text/plain")], body: Data("abc".utf8), timeout: .seconds(30))
    #expect(reply.status == 404)
    #expect(String(decoding: reply.body, as: UTF8.self) == "POST /missing 3")
    #expect(reply.headers.contains { $0.key.lowercased() == "content-type" && $0.value == "text/plain" })
  }

  @Test func aCancelledCallerSendsNothingAndHearsCancelled() async throws {
    let server = try PollingHTTPServer { PollingHTTPServerTests.echo($0) }
    defer { server.stop() }
    let client = client
    let call = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.send(
        method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)/")!, headers: [], body: Data(),
        timeout: .seconds(30))
    }
    let failure = await #expect(throws: URLSessionClient.Failure.self) { try await call.value }
    #expect(failure == .cancelled)
  }

  @Test(arguments: [
    (URLError.Code.cancelled, URLSessionClient.Failure.cancelled),
    (.timedOut, .timedOut),
    (.cannotConnectToHost, .connectionRefused),
    (.notConnectedToInternet, .unreachable(URLError.Code.notConnectedToInternet.rawValue)),
    (.dnsLookupFailed, .unreachable(URLError.Code.dnsLookupFailed.rawValue)),
    (.badServerResponse, .failed(URLError.Code.badServerResponse.rawValue)),
  ])
  func eachURLErrorIsSortedIntoWhatTheCallerCanActOn(_ code: URLError.Code, _ expected: URLSessionClient.Failure) {
    #expect(URLSessionClient.failure(for: URLError(code)) == expected)
  }
}
