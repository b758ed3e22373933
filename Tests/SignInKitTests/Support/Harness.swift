import Foundation
import SignInKit
import SignInKitTesting

/// An `Auth` wired to manual clocks, a scripted backend and a store, as most tests need it.
///
/// `clock` drives `Auth` (proactive refresh, backoff, restore deadline); `backendClock` drives
/// scripted backend delays, so a test releases each independently.
struct Harness {
  let clock = ManualClock()
  let backendClock = ManualClock()
  let backend: ScriptedBackend
  let store: any SessionStore
  let auth: Auth

  static let tokenLifetime: Duration = .seconds(3600)

  init(
    store: any SessionStore = InMemorySessionStore(),
    configuration: AuthConfiguration = AuthConfiguration(), interleaving: Int = 0
  ) {
    let clock = self.clock
    backend = ScriptedBackend(
      clock: backendClock, tokenLifetime: Self.tokenLifetime, interleaving: interleaving,
      now: { clock.date })
    self.store = store
    auth = Auth(
      backend: backend, store: store, clock: clock, configuration: configuration,
      now: { clock.date })
  }

  /// Signs up `email` with a valid password and returns the result.
  @discardableResult
  func signUp(_ email: String = "ada@example.com") async throws -> SignInResult {
    try await auth.signUp(email: email, password: "correct horse")
  }

  /// The state the UI store shows now.
  func shownState() async -> AuthState { await stateStore { $0.state } }

  func stateStore<T: Sendable>(_ read: @UIStateActor @Sendable (AuthStateStore) -> T) async -> T {
    let store = auth.stateStore
    return await UIStateActor.run { read(store) }
  }
}

extension UIStateActor {
  /// Runs `body` on the UI state actor.
  static func run<T: Sendable>(_ body: @UIStateActor @Sendable () throws -> T) async rethrows -> T {
    try await body()
  }
}

/// Runs `body` on a task that a test can cancel, and hands both back.
func startTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
  Task { try await body() }
}

extension AuthError.Code {
  static let allTerminal: [AuthError.Code] = [
    .invalidRefreshToken, .userNotFound, .userDisabled, .sessionExpired,
  ]
}


extension Array where Element: Equatable {
  /// Whether every element appears in `other` in the same order (gaps allowed): what a
  /// conflating subscriber of `states` can observe of the published sequence.
  func isSubsequence(of other: [Element]) -> Bool {
    var remaining = other[...]
    for element in self {
      guard let index = remaining.firstIndex(of: element) else { return false }
      remaining = remaining[remaining.index(after: index)...]
    }
    return true
  }
}
