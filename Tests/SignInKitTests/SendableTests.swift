import SignInKitTesting
import Testing

@testable import SignInKit

/// Compile-time checks: the public types cross isolation domains.
@Suite struct SendableTests {
  func requireSendable<T: Sendable>(_: T.Type) {}

  @Test func publicTypesAreSendable() {
    requireSendable(Auth.self)
    requireSendable(AuthStateStore.self)
    requireSendable(AuthState.self)
    requireSendable(AuthEvent.self)
    requireSendable(AuthError.self)
    requireSendable(User.self)
    requireSendable(SignInResult.self)
    requireSendable(AuthConfiguration.self)
    requireSendable(StoredSession.self)
    requireSendable(FileSessionStore.self)
    requireSendable(InMemorySessionStore.self)
    requireSendable(ProviderCredential.self)
    requireSendable(ManualClock.self)
    requireSendable(ScriptedBackend.self)
    requireSendable(StubProvider.self)
    requireSendable(AsyncStream<AuthState>.self)
  }
}
