import Foundation
import SignInEmulator
import SignInKit
import SignInKitEmbedded
import SignInKitTesting

/// Which backend a test runs `Auth` against.
enum BackendKind: String, CaseIterable, Sendable {
  /// `ScriptedBackend`: faults and delays on demand.
  case scripted
  /// The real in-process `EmbeddedBackend` (in memory, fast scrypt parameters).
  case embedded
  /// The same embedded backend behind `FirebaseEmulatorServer`, reached by `FirebaseBackend`
  /// over loopback HTTP: the wire format both ways.
  case served
}

/// `FirebaseBackend` talking to an embedded backend served on loopback; admin actions go to the
/// embedded backend directly, as the emulator's own utility endpoints would.
final class ServedBackend: AuthBackendDecorator, BackendControls {
  let embedded: EmbeddedBackend
  let server: FirebaseEmulatorServer
  let firebase: FirebaseBackend

  init(embedded: EmbeddedBackend) throws {
    self.embedded = embedded
    server = try FirebaseEmulatorServer(backend: embedded, port: 0)
    firebase = try .emulator(host: server.host, projectID: embedded.configuration.projectID)
  }

  deinit { server.stop() }

  var wrapped: any AuthBackend { firebase }

  func intercept<Result: Sendable>(
    _ call: AuthBackendCall, forward: () async throws -> Result
  ) async throws -> Result {
    try await forward()
  }

  func codes(sentTo email: String) async -> [String] {
    // What the emulator's oobCodes endpoint lists, as a Firebase client reads it.
    ((try? await firebase.emulatorOobCodes()) ?? []).filter { $0.email == email }.map(\.oobCode)
  }
  func deleteUser(uid: String) async throws { try await embedded.deleteUser(uid: uid) }
  func setDisabled(_ disabled: Bool, uid: String) async throws { try await embedded.setDisabled(disabled, uid: uid) }
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
        directory: nil, configuration: Self.embeddedConfiguration(tokenLifetime: tokenLifetime), now: { clock.date })
    case .served:
      backendUnderTest = try! ServedBackend(
        embedded: EmbeddedBackend(
          directory: nil, configuration: Self.embeddedConfiguration(tokenLifetime: tokenLifetime),
          now: { clock.date }))
    }
    self.store = store
    auth = Auth(
      backend: backendUnderTest, store: store, clock: clock, configuration: configuration,
      now: { clock.date })
  }

  /// Fast scrypt and the tests' shared signing key: the embedded backend's work without its
  /// start-up costs.
  static func embeddedConfiguration(tokenLifetime: Duration) -> EmbeddedBackend.Configuration {
    var configuration = try! EmbeddedBackend.Configuration(trusting: [apple])
    configuration.tokenLifetime = tokenLifetime
    configuration.scrypt = ScryptParameters(n: 1 << 10, r: 8, p: 1)
    configuration.signingKey = TestSigningKey.shared
    // The tests' app continues its emailed links to its own site.
    configuration.authorizedDomains = ["example.com"]
    return configuration
  }

  /// The Apple IdP the embedded backends trust; its key is made on its first token. Its tokens
  /// are dated at the harness clocks' start, so they are valid on them.
  static let apple = try! EmbeddedIdentityProvider.apple(now: { ManualClock().date })

  /// Sign in with Apple as `email`, through ``apple``: the identity token, a fresh authorization
  /// code and what else Apple returns on a first sign-in.
  static func appleProvider(
    _ email: String = "tim@example.com", credentialState: (any CredentialStateSource)? = nil
  ) -> AppleProvider {
    AppleProvider(credentialState: credentialState) { hashedNonce in
      AppleProvider.Authorization(
        identityToken: try apple.idToken(email: email, nonce: hashedNonce),
        authorizationCode: try apple.authorizationCode(email: email), userIdentifier: apple.subject(for: email),
        email: email, realUserStatus: .likelyReal)
    }
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
