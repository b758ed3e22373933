import Foundation
import SignInConcurrency
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// The redirect listener faces every process on the machine: hostile requests get a 4xx and a
/// closed socket, idle or slow clients never hold up the real redirect, and cancellation ends the
/// wait while clients still hold connections open.
@Suite(.timeLimit(.minutes(3)))
struct LoopbackRedirectListenerTests {
  @Test(arguments: [
    "GET /callback?code=C HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
    "GET /callback?code=C HTTP/1.1\r\nContent-Length: five\r\n\r\n",
    "GET /callback?code=C HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    "GET /callback?code=C HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
    "GET /callback?code=C HTTP/1.1\n\n",
    "GET /callback?code=C HTTP/1.1\r\n" + String(repeating: "X-Flood: 1\r\n", count: 5000),
  ])
  func answersAHostileRequestWith400AndKeepsListening(_ hostile: String) async throws {
    let listener = try LoopbackRedirectListener()
    let received = Task { try await listener.receive() }
    let port = UInt16(listener.redirectURI.port!)

    let reply = try await RawHTTPClient.exchange(hostile, port: port)
    #expect(reply.hasPrefix("HTTP/1.1 400 "))

    let real = try await RawHTTPClient.exchange(
      "GET /callback?code=C&state=S HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
    #expect(reply.isEmpty == false)
    #expect(real.hasPrefix("HTTP/1.1 200 "))
    #expect(try await received.value == ["code": "C", "state": "S"])
  }

  /// Review V: the listener took a redirect whatever its `Host`, so a page on a name rebound to
  /// 127.0.0.1 (DNS rebinding) could answer the sign-in; now such a request gets a 421 and does
  /// not count.
  @Test(arguments: ["evil.example:PORT", "localhost:PORT", "127.0.0.1:1", nil])
  func aRequestForAnotherHostIsRefusedAndDoesNotCount(_ host: String?) async throws {
    let listener = try LoopbackRedirectListener()
    let received = Task { try await listener.receive() }
    let port = UInt16(listener.redirectURI.port!)
    let header = host.map { "Host: \($0.replacingOccurrences(of: "PORT", with: "\(port)"))\r\n" } ?? ""
    let forged = try await RawHTTPClient.exchange(
      "GET /callback?code=FORGED&state=S HTTP/1.1\r\n\(header)\r\n", port: port)
    #expect(forged.hasPrefix("HTTP/1.1 421 ") || forged.hasPrefix("HTTP/1.1 400 "), "\(forged.prefix(40))")
    let real = try await RawHTTPClient.exchange(
      "GET /callback?code=C&state=S HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
    #expect(real.hasPrefix("HTTP/1.1 200 "))
    #expect(try await received.value == ["code": "C", "state": "S"])
  }

  @Test func anIdleConnectionDoesNotHoldUpTheRedirect() async throws {
    let listener = try LoopbackRedirectListener()
    let received = Task { try await listener.receive() }
    let port = UInt16(listener.redirectURI.port!)
    // A browser's preconnect: connected, says nothing, stays open for the whole test.
    let idle = try RawHTTPClient(port: port)
    let slow = try RawHTTPClient(port: port)
    slow.send("GET /callb")

    let real = try await RawHTTPClient.exchange(
      "GET /callback?code=C&state=S HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
    #expect(real.hasPrefix("HTTP/1.1 200 "))
    #expect(try await received.value["code"] == "C")
    withExtendedLifetime((idle, slow)) {}
  }

  @Test func cancellingEndsTheWaitWhileAClientHoldsAConnectionOpen() async throws {
    let listener = try LoopbackRedirectListener()
    let port = UInt16(listener.redirectURI.port!)
    let received = Task { try await listener.receive() }
    let idle = try RawHTTPClient(port: port)
    idle.send("GET /callback?code=C HTTP/1.1\r\n")  // a head that never ends

    received.cancel()
    let error = await #expect(throws: AuthError.self) { try await received.value }
    #expect(error?.code == .cancelled)
    withExtendedLifetime(idle) {}
  }

  @Test func theSignInTimeoutEndsTheWaitWhileAClientHoldsAConnectionOpen() async throws {
    let clock = ManualClock()
    let listener = try LoopbackRedirectListener()
    let port = UInt16(listener.redirectURI.port!)
    let received = Task { try await withTimeout(.seconds(300), clock: clock) { try await listener.receive() } }
    let idle = try RawHTTPClient(port: port)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(300))
    await #expect(throws: TimeoutError.self) { try await received.value }
    withExtendedLifetime(idle) {}
  }

  @Test func anIdleConnectionIsClosedAndAHalfSentOneAnswered408AtTheDeadline() async throws {
    let clock = ManualClock()
    let listener = try LoopbackRedirectListener(readDeadline: .seconds(10), clock: clock)
    let received = Task { try await listener.receive() }
    let port = UInt16(listener.redirectURI.port!)
    let idle = try RawHTTPClient(port: port)
    let half = try RawHTTPClient(port: port)
    half.send("GET /callb")
    await listener.census { $0.open == 2 && $0.partialRequests == 1 }
    clock.advance(by: .seconds(10))
    #expect(await idle.replyUntilClosed() == "")
    #expect(await half.replyUntilClosed().hasPrefix("HTTP/1.1 408 "))
    // The redirect itself still comes through.
    let real = try await RawHTTPClient.exchange(
      "GET /callback?code=C HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
    #expect(real.hasPrefix("HTTP/1.1 200 "))
    #expect(try await received.value["code"] == "C")
  }

  @Test func thePageDoesNotClaimTheSignInWorked() {
    #expect(!LoopbackRedirectListener.receivedPage.localizedCaseInsensitiveContains("signed in"))
  }
}
