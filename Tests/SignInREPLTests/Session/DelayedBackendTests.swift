import Foundation
import SignInKit
import SignInKitEmbedded
import SignInKitTesting
import SignInREPL
import Testing

/// `signin --latency MS`: every call waits, then reaches the wrapped backend, the sign-out's
/// revocation included; a call cancelled while it waits never reaches it.
@Suite struct DelayedBackendTests {
  static func embedded() throws -> EmbeddedBackend {
    var configuration = EmbeddedBackend.Configuration(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1))
    configuration.signingKey = TestSigningKey.shared
    return try EmbeddedBackend(directory: nil, configuration: configuration)
  }

  @Test func aCallWaitsForTheDelayThenReachesTheWrappedBackend() async throws {
    let (embedded, clock) = (try Self.embedded(), ManualClock())
    let delayed = DelayedBackend(embedded, delay: .seconds(2), clock: clock)
    let call = Task { try await delayed.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse")) }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    #expect(await embedded.emails().isEmpty)
    clock.advance(by: .seconds(1))
    let created = try await call.value
    #expect(created.email == "ada@example.com")
    #expect(await embedded.emails() == ["ada@example.com"])
  }

  @Test func aCallCancelledWhileItWaitsIsCancelledAndNeverReachesTheBackend() async throws {
    let (embedded, clock) = (try Self.embedded(), ManualClock())
    let delayed = DelayedBackend(embedded, delay: .seconds(2), clock: clock)
    let call = Task { try await delayed.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse")) }
    await clock.sleepers(atLeast: 1)
    call.cancel()
    let error = try await #require(throws: AuthError.self) { try await call.value }
    #expect(error.code == .cancelled)
    #expect(await embedded.emails().isEmpty)
  }

  @Test(arguments: ScriptedBackend.Call.allCases)
  func everyCallReachesTheWrappedBackend(_ call: ScriptedBackend.Call) async {
    let scripted = ScriptedBackend()
    await call.makeOnce(on: DelayedBackend(scripted, delay: .zero, clock: ManualClock()))
    #expect(scripted.calls.map(\.call) == [call])
  }

  @Test func signingOutThroughTheDelayRevokesTheRefreshToken() async throws {
    let embedded = try Self.embedded()
    let store = InMemorySessionStore()
    let auth = Auth(backend: DelayedBackend(embedded, delay: .zero, clock: ManualClock()), store: store)
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    let copy = try #require(try store.load()?.refreshToken)
    try await auth.signOut()
    let refused = try await #require(throws: AuthError.self) {
      try await embedded.refresh(RefreshTokenRequest(refreshToken: copy))
    }
    #expect(refused.code == .invalidRefreshToken)
    await auth.shutdown()
  }
}
