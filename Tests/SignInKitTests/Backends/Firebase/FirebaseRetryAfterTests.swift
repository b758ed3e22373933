import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// A rate limit says when to try again: `Retry-After` becomes `AuthError.retryAfter`, from the
/// backend's clock.
@Suite struct FirebaseRetryAfterTests {
  static let envelope = #"{"error":{"code":429,"message":"TOO_MANY_ATTEMPTS_TRY_LATER","status":"RESOURCE_EXHAUSTED"}}"#

  @Test(arguments: [
    ("30", 30.0), ("0", 0.0), ("Wed, 21 Oct 2026 07:28:30 GMT", nil),
  ])
  func aServedRetryAfterIsWhenToTryAgain(header: String, seconds: Double?) async throws {
    let now = Date(timeIntervalSince1970: 1_792_000_000)
    let transport = RecordingTransport([.status(429, Self.envelope, headers: ["Retry-After": header])])
    var backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:])
    backend.now = { now }
    let error = try await #require(throws: AuthError.self) {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "x"))
    }
    #expect(error.code == .tooManyRequests)
    let expected = seconds.map { now.addingTimeInterval($0) } ?? Date(timeIntervalSince1970: 1_792_567_710)
    #expect(error.retryAfter == expected)
  }

  @Test func aRateLimitWithoutRetryAfterSaysNothingOfWhen() async throws {
    let transport = RecordingTransport([.status(429, Self.envelope)])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:])
    let error = try await #require(throws: AuthError.self) {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "x"))
    }
    #expect(error.code == .tooManyRequests)
    #expect(error.retryAfter == nil)
  }
}
