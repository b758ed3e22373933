import Foundation
import SignInKit
import SignInKitFlows
import Testing

/// The embedded backend's throttle says when to try again, on every transport: in process, over
/// HTTP (as `Retry-After`), and behind the scripted backend.
@Suite struct RetryAfterTests {
  @Test(arguments: FlowBackend.allCases)
  func theThrottleGivesItsWindowAsRetryAfter(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    // Five wrong passwords (the default allowance), then the sixth attempt waits 30 s.
    for _ in 0..<5 {
      await #expect(throws: AuthError.self) { try await auth.signIn(email: "ada@example.com", password: "wrong") }
    }
    let error = try await #require(throws: AuthError.self) {
      try await auth.signIn(email: "ada@example.com", password: "correct horse")
    }
    #expect(error.code == .tooManyRequests)
    #expect(error.retryAfter == fixture.clock.now.addingTimeInterval(30))
    fixture.clock.advance(31)
    _ = try await auth.signIn(email: "ada@example.com", password: "correct horse")
  }
}
