import Foundation
import SignInKitTesting
import Testing

@testable import SignInKit

/// The device grant's polling (RFC 8628 §3.5) through every reply, on an injected clock.
@Suite(.timeLimit(.minutes(3)))
struct DeviceAuthorizationTests {
  let issuer = TestIssuer()
  static let start = RecordingTransport.Reply.status(
    200,
    #"{"device_code":"DC","user_code":"ABCD-EFGH","verification_url":"https://www.google.com/device","expires_in":60,"interval":5}"#
  )
  static let pending = RecordingTransport.Reply.status(400, #"{"error":"authorization_pending"}"#)
  static let slowDown = RecordingTransport.Reply.status(400, #"{"error":"slow_down"}"#)
  static let granted = RecordingTransport.Reply.status(200, #"{"access_token":"AT","id_token":"ID","expires_in":3600}"#)

  func client(_ transport: RecordingTransport) -> OIDCClient {
    OIDCClient(metadata: issuer.metadata, clientID: issuer.clientID, transport: transport)
  }

  @Test func pollsAtTheIntervalSlowsDownWhenToldAndReturnsTheTokens() async throws {
    let transport = RecordingTransport([Self.start, Self.pending, Self.slowDown, Self.pending, Self.granted])
    let clock = ManualClock()
    let client = client(transport)
    let authorization = try await client.startDeviceAuthorization(scopes: ["openid"])
    #expect(authorization.userCode == "ABCD-EFGH")
    #expect(authorization.verificationURI.absoluteString == "https://www.google.com/device")
    let poll = Task { try await client.pollDeviceToken(authorization, clock: clock) }
    // 5 s, pending; 5 s, slow_down; then 10 s twice.
    for (wait, polls) in [(5, 2), (5, 3), (10, 4), (10, 5)] {
      await clock.sleepers(atLeast: 1)
      #expect(transport.requests.count == polls - 1, "before the poll after \(wait) s")
      clock.advance(by: .seconds(wait))
      if polls < 5 {
        await clock.sleepers(atLeast: 1)
        #expect(transport.requests.count == polls)
      }
    }
    let tokens = try await poll.value
    #expect(tokens.idToken == "ID")
    let body = String(decoding: transport.requests[1].body, as: UTF8.self)
    #expect(body.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=DC"))
  }

  @Test(arguments: [
    (#"{"error":"access_denied"}"#, AuthError.Code.userCancelled), (#"{"error":"expired_token"}"#, .timeout),
    (#"{"error":"invalid_client"}"#, .misconfigured),
  ])
  func stopsOnAFinalError(_ reply: String, _ code: AuthError.Code) async throws {
    let transport = RecordingTransport([Self.start, Self.pending, .status(400, reply)])
    let clock = ManualClock()
    let client = client(transport)
    let authorization = try await client.startDeviceAuthorization(scopes: ["openid"])
    let poll = Task { try await client.pollDeviceToken(authorization, clock: clock) }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(5))
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(5))
    let error = try await #require(throws: AuthError.self) { _ = try await poll.value }
    #expect(error.code == code)
  }

  @Test func givesUpWhenTheCodeExpires() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"device_code":"DC","user_code":"U","verification_uri":"https://x.example/device","expires_in":10,"interval":5}"#
      ),
      Self.pending, Self.pending, Self.granted,
    ])
    let clock = ManualClock()
    let client = client(transport)
    let authorization = try await client.startDeviceAuthorization(scopes: ["openid"])
    let poll = Task { try await client.pollDeviceToken(authorization, clock: clock) }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(5))
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(5))
    let error = try await #require(throws: AuthError.self) { _ = try await poll.value }
    #expect(error.code == .timeout)
    #expect(transport.requests.count == 3)
  }

  @Test func cancellingStopsPolling() async throws {
    let transport = RecordingTransport([Self.start])
    let clock = ManualClock()
    let client = client(transport)
    let authorization = try await client.startDeviceAuthorization(scopes: ["openid"])
    let poll = Task { try await client.pollDeviceToken(authorization, clock: clock) }
    await clock.sleepers(atLeast: 1)
    poll.cancel()
    let error = try await #require(throws: AuthError.self) { _ = try await poll.value }
    #expect(error.code == .cancelled)
  }

  @Test func anIssuerWithoutADeviceEndpointSaysSo() async throws {
    var metadata = issuer.metadata
    metadata.deviceAuthorizationEndpoint = nil
    let client = OIDCClient(metadata: metadata, clientID: "c", transport: RecordingTransport())
    let error = try await #require(throws: AuthError.self) { _ = try await client.startDeviceAuthorization(scopes: []) }
    #expect(error.code == .misconfigured)
  }
  @Test func aTransientFailureWhilePollingBacksOffAndKeepsPolling() async throws {
    let transport = RecordingTransport([
      Self.start, .failure(AuthError(.network, "offline")),
      .status(503, "<html><body>Service Unavailable</body></html>"), Self.pending, Self.granted,
    ])
    let clock = ManualClock()
    let client = client(transport)
    let authorization = try await client.startDeviceAuthorization(scopes: ["openid"])
    let poll = Task { try await client.pollDeviceToken(authorization, clock: clock) }
    // 5 s, offline; 10 s, an HTML 503; 20 s, pending; 20 s, granted.
    for (wait, polls) in [(5, 2), (10, 3), (20, 4), (20, 5)] {
      await clock.sleepers(atLeast: 1)
      #expect(transport.requests.count == polls - 1, "before the poll after \(wait) s")
      clock.advance(by: .seconds(wait))
    }
    #expect(try await poll.value.idToken == "ID")
  }

  @Test func transientFailuresStillEndWhenTheCodeExpires() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"device_code":"DC","user_code":"U","verification_uri":"https://x.example/device","expires_in":14,"interval":5}"#
      ),
      .failure(AuthError(.timeout, "slow")), .failure(AuthError(.network, "offline")),
    ])
    let clock = ManualClock()
    let client = client(transport)
    let authorization = try await client.startDeviceAuthorization(scopes: ["openid"])
    let poll = Task { try await client.pollDeviceToken(authorization, clock: clock) }
    for wait in [5, 10] {
      await clock.sleepers(atLeast: 1)
      clock.advance(by: .seconds(wait))
    }
    let error = try await #require(throws: AuthError.self) { _ = try await poll.value }
    #expect(error.code == .timeout)
    #expect(error.message.contains("offline"))
  }

  @Test(arguments: [0, 0.2])
  func anIntervalUnderOneSecondPollsOnceASecond(_ interval: Double) async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"device_code":"DC","user_code":"U","verification_uri":"https://x.example/device","expires_in":60,"interval":\#(interval)}"#
      ),
      Self.pending, Self.granted,
    ])
    let clock = ManualClock()
    let client = client(transport)
    let authorization = try await client.startDeviceAuthorization(scopes: ["openid"])
    #expect(authorization.interval == .seconds(1))
    let poll = Task { try await client.pollDeviceToken(authorization, clock: clock) }
    for polls in [1, 2] {
      await clock.sleepers(atLeast: 1)
      #expect(transport.requests.count == polls)
      clock.advance(by: .seconds(1))
    }
    #expect(try await poll.value.idToken == "ID")
  }

  @Test(arguments: [#""nan""#, #""1e300""#, "-5", #""inf""#, "1e300", "99999999"])
  func anUnusableDurationIsAnInvalidResponse(_ value: String) async throws {
    for field in ["expires_in", "interval"] {
      let other = field == "interval" ? #""expires_in":60"# : #""interval":5"#
      let transport = RecordingTransport([
        .status(
          200,
          #"{"device_code":"DC","user_code":"U","verification_uri":"https://x.example/device",\#(other),"\#(field)":\#(value)}"#
        )
      ])
      let error = try await #require(throws: AuthError.self) {
        _ = try await client(transport).startDeviceAuthorization(scopes: ["openid"])
      }
      #expect(error.code == .invalidResponse, "\(field): \(value)")
      #expect(error.message.contains(field))
    }
    let tokens = RecordingTransport([.status(200, #"{"access_token":"AT","id_token":"ID","expires_in":\#(value)}"#)])
    let error = try await #require(throws: AuthError.self) {
      _ = try await client(tokens).tokenRequest([("grant_type", "authorization_code")])
    }
    #expect(error.code == .invalidResponse)
  }
}
