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

  /// One call of each kind through `backend`; a call the scripted backend refuses still arrived.
  static func callOnce(_ call: ScriptedBackend.Call, through backend: any AuthBackend) async {
    let email = "ada@example.com"
    switch call {
    case .signUp: _ = try? await backend.signUp(SignUpRequest(email: email, password: "correct horse"))
    case .signInWithPassword:
      _ = try? await backend.signInWithPassword(PasswordSignInRequest(email: email, password: "correct horse"))
    case .signInWithIdp:
      _ = try? await backend.signInWithIdp(
        IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: "a.b.c")))
    case .signInWithCustomToken: _ = try? await backend.signInWithCustomToken(CustomTokenSignInRequest(token: "t"))
    case .signInWithEmailLink:
      _ = try? await backend.signInWithEmailLink(EmailLinkSignInRequest(email: email, oobCode: "c"))
    case .refresh: _ = try? await backend.refresh(RefreshTokenRequest(refreshToken: "r"))
    case .lookup: _ = try? await backend.lookup(LookupRequest(idToken: "i"))
    case .update: _ = try? await backend.update(UpdateAccountRequest(idToken: "i", displayName: "Ada"))
    case .delete: try? await backend.delete(DeleteAccountRequest(idToken: "i"))
    case .sendOobCode: _ = try? await backend.sendOobCode(.passwordReset(email: email))
    case .resetPassword: _ = try? await backend.resetPassword(ResetPasswordRequest(oobCode: "c"))
    case .revokeToken: try? await backend.revokeToken(.apple(authorizationCode: "c", idToken: "i"))
    }
  }

  @Test(arguments: ScriptedBackend.Call.allCases)
  func everyCallReachesTheWrappedBackend(_ call: ScriptedBackend.Call) async {
    let scripted = ScriptedBackend()
    await Self.callOnce(call, through: DelayedBackend(scripted, delay: .zero, clock: ManualClock()))
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
