import Foundation
import SignInConcurrency
import SignInKit
import SignInKitTesting
import Testing

/// One funnel for every backend call: a decorator that writes only `intercept` sees each call,
/// by its name, and each reaches the wrapped backend, those with a default included.
@Suite struct AuthBackendDecoratorTests {
  /// Records the calls it sees, then forwards them.
  struct Recording: AuthBackendDecorator {
    let wrapped: any AuthBackend
    let seen = Locked<[AuthBackendCall]>([])

    func intercept<Result: Sendable>(
      _ call: AuthBackendCall, forward: () async throws -> Result
    ) async throws -> Result {
      seen.withLock { $0.append(call) }
      return try await forward()
    }
  }

  @Test(arguments: AuthBackendCall.allCases)
  func everyCallGoesThroughInterceptToTheWrappedBackend(_ call: AuthBackendCall) async {
    let scripted = ScriptedBackend()
    let decorator = Recording(wrapped: scripted)
    await call.makeOnce(on: decorator)
    #expect(decorator.seen.withLock { $0 } == [call])
    #expect(scripted.calls.map(\.call) == [call])
  }

  /// Answers refreshes itself and forwards the rest.
  struct Offline: AuthBackendDecorator {
    let wrapped: any AuthBackend

    func intercept<Result: Sendable>(
      _ call: AuthBackendCall, forward: () async throws -> Result
    ) async throws -> Result {
      guard call != .refresh else { throw AuthError(.network, "offline") }
      return try await forward()
    }
  }

  @Test func aDecoratorMayAnswerWithoutTheWrappedBackend() async throws {
    let scripted = ScriptedBackend()
    let offline = Offline(wrapped: scripted)
    let session = try await offline.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let error = await #expect(throws: AuthError.self) {
      try await offline.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
    }
    #expect(error?.code == .network)
    #expect(scripted.count(of: .refresh) == 0)
  }

  @Test func aSignOutThroughADecoratorAsksTheWrappedBackendToRevoke() async throws {
    let scripted = ScriptedBackend()
    let decorator = Recording(wrapped: scripted)
    let auth = Auth(backend: decorator, store: InMemorySessionStore())
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    #expect(decorator.seen.withLock { $0 }.contains(.revokeRefreshToken))
    #expect(scripted.count(of: .revokeRefreshToken) == 1)
    await auth.shutdown()
  }
}
