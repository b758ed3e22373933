import Foundation
import SignInKit
import SignInKitEmbedded
import SignInKitTesting

/// Which backend a test runs `Auth` against.
enum BackendKind: String, CaseIterable, Sendable {
  /// `ScriptedBackend`: faults and delays on demand.
  case scripted
  /// The real in-process `EmbeddedBackend` (in memory, fast scrypt parameters).
  case embedded
}

/// What account tests need from a backend besides `AuthBackend`: the mail it sent, and admin
/// actions taken outside the user's session.
protocol BackendControls: Sendable {
  func codes(sentTo email: String) async -> [String]
  func deleteUser(uid: String) async throws
  func setDisabled(_ disabled: Bool, uid: String) async throws
}

extension ScriptedBackend: BackendControls {}

extension EmbeddedBackend: BackendControls {
  func codes(sentTo email: String) async -> [String] { mailbox(for: email).map(\.code) }
}

/// An `Auth` wired to manual clocks, a scripted backend and a store, as most tests need it.
///
/// `clock` drives `Auth` (proactive refresh, backoff, restore deadline); `backendClock` drives
/// scripted backend delays, so a test releases each independently.
struct Harness {
  let clock = ManualClock()
  let backendClock = ManualClock()
  let kind: BackendKind
  let backendUnderTest: any AuthBackend & BackendControls
  let store: any SessionStore
  let auth: Auth

  /// The scripted backend, for tests that script faults and delays (only for `.scripted`).
  var backend: ScriptedBackend { backendUnderTest as! ScriptedBackend }
  /// Mailbox and admin actions, on either backend.
  var controls: any BackendControls { backendUnderTest }

  static let tokenLifetime: Duration = .seconds(3600)

  init(
    _ kind: BackendKind = .scripted, store: any SessionStore = InMemorySessionStore(),
    configuration: AuthConfiguration = AuthConfiguration(), interleaving: Int = 0,
    tokenLifetime: Duration = Harness.tokenLifetime
  ) {
    let clock = self.clock
    self.kind = kind
    switch kind {
    case .scripted:
      backendUnderTest = ScriptedBackend(
        clock: backendClock, tokenLifetime: tokenLifetime, interleaving: interleaving,
        now: { clock.date })
    case .embedded:
      backendUnderTest = try! EmbeddedBackend(
        directory: nil,
        configuration: EmbeddedBackend.Configuration(
          tokenLifetime: tokenLifetime, scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)),
        now: { clock.date })
    }
    self.store = store
    auth = Auth(
      backend: backendUnderTest, store: store, clock: clock, configuration: configuration,
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
