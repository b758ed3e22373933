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
  /// `FirebaseBackend`'s mapping handing its calls to the identity service in this process: the
  /// wire layer's values, without JSON or HTTP.
  case inProcess
}

/// `FirebaseBackend` talking to an embedded backend served on loopback, or handing its calls to
/// the identity service in process; admin actions go to the embedded backend directly, as the
/// emulator's own utility endpoints would.
final class ServedBackend: AuthBackendDecorator, BackendControls {
  let embedded: EmbeddedBackend
  /// The loopback server; `nil` in process.
  let server: FirebaseEmulatorServer?
  let firebase: FirebaseBackend

  /// - Parameters:
  ///   - tenantID: the tenant the client signs in to; the server makes it on first use, with
  ///     every sign-in method on, as the Firebase emulator does.
  ///   - appCheckSecret: when set, the server requires App Check tokens signed with it.
  ///   - now: the client's wall clock (App Check tokens' expiry).
  ///   - inProcess: hand the calls to the identity service in this process instead of a server.
  init(
    embedded: EmbeddedBackend, tenantID: String? = nil, appCheckSecret: String? = nil,
    now: @escaping @Sendable () -> Date = { Date() }, inProcess: Bool = false
  ) throws {
    self.embedded = embedded
    var firebase: FirebaseBackend
    if inProcess {
      server = nil
      firebase = try FirebaseBackend.inProcess(embedded, tenantID: tenantID)
    } else {
      let server = try FirebaseEmulatorServer(backend: embedded, port: 0, appCheckSecret: appCheckSecret)
      self.server = server
      firebase = try FirebaseBackend.emulator(host: server.host, projectID: embedded.configuration.projectID)
      firebase.tenantID = tenantID
    }
    firebase.now = now
    self.firebase = firebase
  }

  deinit { server?.stop() }

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
  func textedCode(for verificationID: String) async -> String? {
    // What the emulator's verificationCodes endpoint lists, as a Firebase client reads it.
    ((try? await firebase.emulatorTextMessages()) ?? []).first { $0.verificationID == verificationID }?.code
  }
  func deleteUser(uid: String) async throws { try await embedded.deleteUser(uid: uid) }
  func setDisabled(_ disabled: Bool, uid: String) async throws { try await embedded.setDisabled(disabled, uid: uid) }
}

/// What account tests need from a backend besides `AuthBackend`: the mail it sent, and admin
/// actions taken outside the user's session.
protocol BackendControls: Sendable {
  func codes(sentTo email: String) async -> [String]
  /// The code texted for the verification `verificationID`, while it can be used.
  func textedCode(for verificationID: String) async -> String?
  func deleteUser(uid: String) async throws
  func setDisabled(_ disabled: Bool, uid: String) async throws
}

extension ScriptedBackend: BackendControls {
  func textedCode(for verificationID: String) async -> String? {
    await textedCodes().first { $0.sessionInfo == verificationID }?.code
  }
}

extension EmbeddedBackend: BackendControls {
  func codes(sentTo email: String) async -> [String] { mailbox(for: email).map(\.code) }
  func textedCode(for verificationID: String) async -> String? {
    verificationCodes().first { $0.sessionInfo == verificationID }?.code
  }
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
    tokenLifetime: Duration = Harness.tokenLifetime, tenantID: String? = nil, acceptsUnsignedIdPTokens: Bool = false
  ) {
    let clock = self.clock
    self.kind = kind
    var embedded = Self.embeddedConfiguration(tokenLifetime: tokenLifetime)
    // The Firebase emulator's rule, as `signin serve` runs: fake IdP tokens, as its handler makes.
    embedded.acceptUnsignedIdPTokens = acceptsUnsignedIdPTokens
    switch kind {
    case .scripted:
      backendUnderTest = ScriptedBackend(
        clock: backendClock, tokenLifetime: tokenLifetime, interleaving: interleaving, tenantID: tenantID,
        now: { clock.date })
    case .embedded:
      embedded.tenantID = tenantID
      backendUnderTest = try! EmbeddedBackend(directory: nil, configuration: embedded, now: { clock.date })
    case .served, .inProcess:
      backendUnderTest = try! ServedBackend(
        embedded: EmbeddedBackend(directory: nil, configuration: embedded, now: { clock.date }), tenantID: tenantID,
        now: { clock.date }, inProcess: kind == .inProcess)
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
