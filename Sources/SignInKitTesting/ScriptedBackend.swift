import Foundation
import SignInConcurrency
import SignInKit
import SignInKitEmbedded

/// An `AuthBackend` for tests: a small in-memory identity service whose replies a test can
/// delay or replace with faults, and which records every call.
///
/// Every call goes through one funnel (``intercept(_:forward:)``, as for any
/// `AuthBackendDecorator`) to ``wrapped``: `FirebaseBackend`'s mapping of the call to the wire
/// layer's body, handed to the identity service of ``accounts``, an in-memory `EmbeddedBackend`.
/// So a scripted backend answers exactly as the embedded backend and `signin serve` do: Firebase's
/// rules, error codes and token shapes, through the one mapping they share. Scripted steps are
/// taken first, one per call, in order:
///
/// ```swift
/// let backend = ScriptedBackend(clock: backendClock)
/// backend.script(.refresh, .delay(.seconds(30)))          // the next refresh waits on the clock
/// backend.script(.refresh, .fail(AuthError(.network, "offline")))
/// backend.setOutage(.refresh, AuthError(.network, "offline"))   // every refresh fails until cleared
/// #expect(backend.count(of: .refresh) == 1)
/// ```
///
/// A delayed call sleeps on the clock given at init before touching any data, so cancelling the
/// caller's task during the delay changes nothing.
///
/// - Concurrency: `Sendable`, lock-guarded, any isolation.
public final class ScriptedBackend: AuthBackendDecorator {
  /// The backend calls, one per `AuthBackend` method.
  public typealias Call = AuthBackendCall

  /// What the next call of a kind does before (or instead of) its normal reply.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Step: Sendable {
    public var delay: Duration?
    public var error: AuthError?
    /// When `false`, the call ignores cancellation of its caller and replies after its delay
    /// anyway, like a server whose answer is already on the way.
    public var honorsCancellation: Bool

    public init(delay: Duration? = nil, error: AuthError? = nil, honorsCancellation: Bool = true) {
      self.delay = delay
      self.error = error
      self.honorsCancellation = honorsCancellation
    }

    /// Waits `duration` on the backend's clock, then replies normally.
    public static func delay(_ duration: Duration) -> Step { Step(delay: duration) }
    /// Waits `duration` even if the caller is cancelled, then replies normally: a late reply.
    public static func lateReply(after duration: Duration) -> Step {
      Step(delay: duration, honorsCancellation: false)
    }
    /// Throws `error` at once.
    public static func fail(_ error: AuthError) -> Step { Step(error: error) }
    /// Waits `duration`, then throws `error`.
    public static func fail(_ error: AuthError, after duration: Duration) -> Step {
      Step(delay: duration, error: error)
    }
  }

  /// One call as the backend saw it: its kind, and nothing of what it carried, so a log of calls
  /// never holds a secret.
  ///
  /// - Concurrency: `Sendable` value.
  public struct RecordedCall: Sendable, Equatable, CustomStringConvertible {
    public let call: Call
    public var description: String { call.rawValue }
  }

  struct Model {
    var scripts: [Call: [Step]] = [:]
    var outages: [Call: AuthError] = [:]
    var calls: [RecordedCall] = []
    var callWatchers = ConditionWaiters<[RecordedCall]>()

    func count(of call: Call) -> Int { calls.filter { $0.call == call }.count }
  }

  let model: Locked<Model>
  private let clock: any Clock<Duration>
  private let interleaving: Int
  /// The accounts: an in-memory `EmbeddedBackend`, so the scripted backend answers every
  /// unscripted call with the embedded backend's rules, codes and token shapes.
  public let accounts: EmbeddedBackend
  /// Where each call goes after its script: the client of ``accounts``' project, the mapping
  /// `FirebaseBackend` and `EmbeddedBackend` share. Its `revokeRefreshToken` does nothing, as
  /// Firebase's REST API has no call that revokes one refresh token: the token keeps working at
  /// the backend after a sign-out.
  public let wrapped: any AuthBackend

  /// - Parameters:
  ///   - clock: what scripted delays sleep on; a ``ManualClock`` lets the test release them.
  ///   - tokenLifetime: the `expiresIn` of every issued ID token.
  ///   - interleaving: each call yields a random `0...interleaving` times before replying, to shake
  ///     out orderings in stress tests.
  ///   - tenantID: the Identity Platform tenant the accounts belong to, as their tokens name it.
  ///   - now: the wall clock of the accounts: timestamps, token issue and expiry.
  ///   - recaptcha: where the client gets reCAPTCHA tokens when the accounts' project enforces
  ///     reCAPTCHA (`accounts.enforceRecaptcha(emailPassword:phone:)`).
  public init(
    clock: any Clock<Duration> = ManualClock(), tokenLifetime: Duration = .seconds(3600),
    interleaving: Int = 0, tenantID: String? = nil, now: @escaping @Sendable () -> Date = { Date() },
    recaptcha: (any RecaptchaTokenProvider)? = nil
  ) {
    self.clock = clock
    self.interleaving = interleaving
    model = Locked(Model())
    let accounts = Self.makeAccounts(tokenLifetime: tokenLifetime, tenantID: tenantID, now: now, recaptcha: recaptcha)
    self.accounts = accounts
    wrapped = accounts.client
  }

  /// `scripted`'s scripts, log and clock over `accounts`.
  private init(sharing scripted: ScriptedBackend, accounts: EmbeddedBackend) {
    clock = scripted.clock
    interleaving = scripted.interleaving
    model = scripted.model
    self.accounts = accounts
    wrapped = accounts.client
  }

  /// The tenant whose users this backend plays, as its tokens name it.
  public var tenantID: String? { accounts.configuration.tenantID }

  /// The same scripts, call log and clock for tenant `tenantID`'s users, whose accounts sit
  /// beside these in the same in-memory database.
  public func forTenant(_ tenantID: String?) throws -> any AuthBackend {
    ScriptedBackend(sharing: self, accounts: try accounts.tenant(tenantID))
  }

  /// Runs the call's scripted steps (record, yield, delay, fault), then `forward`.
  public func intercept<Result: Sendable>(
    _ call: Call, forward: () async throws -> Result
  ) async throws -> Result {
    try await begin(call)
    return try await forward()
  }

  /// An in-memory embedded backend as a test wants it: cheap (fast scrypt, the tests' shared
  /// key), and as lenient as the Firebase emulator with IdP and custom tokens.
  private static func makeAccounts(
    tokenLifetime: Duration, tenantID: String?, now: @escaping @Sendable () -> Date,
    recaptcha: (any RecaptchaTokenProvider)?
  ) -> EmbeddedBackend {
    var configuration = EmbeddedBackend.Configuration(tokenLifetime: tokenLifetime, acceptUnsignedIdPTokens: true)
    configuration.tenantID = tenantID
    configuration.recaptcha = recaptcha
    configuration.acceptUnsignedCustomTokens = true
    configuration.scrypt = .test
    configuration.signingKey = TestSigningKey.shared
    configuration.authorizedDomains = ["example.com"]
    do {
      return try EmbeddedBackend(directory: nil, configuration: configuration, now: now)
    } catch {
      // Opening SQLite's in-memory database does not touch the disk.
      fatalError("could not open an in-memory embedded backend: \(error)")
    }
  }

  // MARK: - Scripting and inspection

  /// Queues `step` for the next unscripted call of kind `call`.
  public func script(_ call: Call, _ steps: Step...) {
    model.withLock { $0.scripts[call, default: []].append(contentsOf: steps) }
  }

  /// Makes every call of kind `call` fail with `error` until cleared with `nil`.
  public func setOutage(_ call: Call, _ error: AuthError?) {
    model.withLock { $0.outages[call] = error }
  }

  /// Every call so far, in arrival order.
  public var calls: [RecordedCall] { model.withLock { $0.calls } }

  /// How many calls of kind `call` arrived.
  public func count(of call: Call) -> Int { model.withLock { $0.count(of: call) } }

  /// Suspends until at least `count` calls of kind `call` have arrived, so a test can wait for
  /// background work (a scheduled retry) without sleeping or polling. Returns early when the
  /// calling task is cancelled.
  public func calls(atLeast count: Int, of call: Call) async {
    await model.wait(
      on: \.callWatchers, observing: { $0.calls },
      until: { calls in calls.filter { $0.call == call }.count >= count })
  }

  /// The action codes "emailed" to `email` that can still be used, oldest first.
  public func codes(sentTo email: String) async -> [String] {
    await accounts.mailbox(for: email).map(\.code)
  }

  /// Admin: disables or enables an account; its refreshes then fail with `USER_DISABLED`.
  ///
  /// - Throws: `userNotFound` when no account has `uid`.
  public func setDisabled(_ disabled: Bool, uid: String) async throws {
    try await accounts.setDisabled(disabled, uid: uid)
  }

  /// Admin: revokes every token of `uid`; its refreshes then fail with `INVALID_REFRESH_TOKEN`.
  public func revokeTokens(uid: String) async throws {
    try await accounts.revokeAllSessions(uid: uid)
  }

  /// Admin: deletes `uid` as if from another device; its refresh tokens go with it, so its
  /// refreshes fail with `INVALID_REFRESH_TOKEN`.
  ///
  /// - Throws: `userNotFound` when no account has `uid`.
  public func deleteUser(uid: String) async throws {
    try await accounts.deleteUser(uid: uid)
  }

  /// The uid of the account with `email`, if any.
  public func uid(forEmail email: String) async -> String? {
    await accounts.uid(forEmail: email)
  }

  /// Runs the scripted steps of one call: records it, yields, sleeps, and throws a scripted or
  /// outage error. Touches no account data.
  func begin(_ call: Call) async throws {
    let (step, outage, watchers) = model.withLock {
      model -> (Step?, AuthError?, [CheckedContinuation<Void, Never>]) in
      model.calls.append(RecordedCall(call: call))
      let step = model.scripts[call]?.isEmpty == false ? model.scripts[call]!.removeFirst() : nil
      let due = model.callWatchers.takeSatisfied(by: model.calls)
      return (step, model.outages[call], due)
    }
    for watcher in watchers { watcher.resume() }
    if interleaving > 0 {
      for _ in 0..<Int.random(in: 0...interleaving) { await Task.yield() }
    }
    if let step, let delay = step.delay {
      if step.honorsCancellation {
        try await clock.sleep(for: delay)
      } else {
        let clock = self.clock
        try await Task { try await clock.sleep(for: delay) }.value
        if let error = step.error ?? outage { throw error }
        return
      }
    }
    try Task.checkCancellation()
    if let error = step?.error ?? outage { throw error }
  }
}
