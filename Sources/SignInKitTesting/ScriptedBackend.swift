import Foundation
import SignInConcurrency
import SignInKit

/// An `AuthBackend` for tests: a small in-memory identity service whose replies a test can
/// delay or replace with faults, and which records every call.
///
/// Unscripted calls behave like Firebase: accounts by email, weak-password and duplicate-email
/// errors, opaque tokens, refresh, lookup, linking, action codes. Scripted steps are taken first,
/// one per call, in order:
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
public final class ScriptedBackend: AuthBackend {
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

  /// One call as the backend saw it. `request` is the request's description, which never holds
  /// a secret.
  ///
  /// - Concurrency: `Sendable` value.
  public struct RecordedCall: Sendable, Equatable, CustomStringConvertible {
    public let call: Call
    public let request: String
    public var description: String { "\(call.rawValue) \(request)" }
  }

  struct Account {
    var uid: String
    var email: String?
    var password: String?
    var displayName: String?
    var photoURL: URL?
    var emailVerified = false
    var disabled = false
    var federated: [ProviderInfo] = []
    var createdAt: Date
    var lastLoginAt: Date
  }

  struct Model {
    var accounts: [String: Account] = [:]
    var idTokens: [String: String] = [:]
    var refreshTokens: [String: String] = [:]
    /// Sent codes: the account (empty for a sign-in link to a new address), the kind, and the
    /// address a sign-in link or change of email is for.
    var oobCodes: [String: (uid: String, kind: String, email: String?)] = [:]
    var outbox: [String: [String]] = [:]
    /// Provider authorization codes already used to revoke a token.
    var usedProviderCodes: Set<String> = []
    var scripts: [Call: [Step]] = [:]
    var outages: [Call: AuthError] = [:]
    var calls: [RecordedCall] = []
    var callWatchers = ConditionWaiters<[RecordedCall]>()
    var serial = 0

    func count(of call: Call) -> Int { calls.filter { $0.call == call }.count }

    mutating func next() -> Int {
      serial += 1
      return serial
    }
  }

  let model = Locked(Model())
  private let clock: any Clock<Duration>
  private let interleaving: Int
  let tokenLifetime: Duration
  let now: @Sendable () -> Date

  /// - Parameters:
  ///   - clock: what scripted delays sleep on; a ``ManualClock`` lets the test release them.
  ///   - tokenLifetime: the `expiresIn` of every issued ID token.
  ///   - interleaving: each call yields a random `0...interleaving` times before replying, to shake
  ///     out orderings in stress tests.
  ///   - now: the wall clock used for account timestamps.
  public init(
    clock: any Clock<Duration> = ManualClock(), tokenLifetime: Duration = .seconds(3600),
    interleaving: Int = 0, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.clock = clock
    self.tokenLifetime = tokenLifetime
    self.interleaving = interleaving
    self.now = now
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

  /// The action codes "emailed" to `email`, oldest first.
  public func codes(sentTo email: String) -> [String] {
    model.withLock { $0.outbox[email.lowercased()] ?? [] }
  }

  /// Admin: disables or enables an account; its refreshes then fail with `USER_DISABLED`.
  public func setDisabled(_ disabled: Bool, uid: String) {
    model.withLock { $0.accounts[uid]?.disabled = disabled }
  }

  /// Admin: revokes every token of `uid`; its refreshes then fail with `INVALID_REFRESH_TOKEN`.
  public func revokeTokens(uid: String) {
    model.withLock { model in
      model.refreshTokens = model.refreshTokens.filter { $0.value != uid }
      model.idTokens = model.idTokens.filter { $0.value != uid }
    }
  }

  /// Admin: deletes `uid` as if from another device; its refreshes fail with `USER_NOT_FOUND`.
  public func deleteUser(uid: String) {
    model.withLock { _ = $0.accounts.removeValue(forKey: uid) }
  }

  /// The uid of the account with `email`, if any.
  public func uid(forEmail email: String) -> String? {
    model.withLock { model in model.accounts.values.first { $0.email == email.lowercased() }?.uid }
  }

  /// Runs the scripted steps of one call: records it, yields, sleeps, and throws a scripted or
  /// outage error. Touches no account data.
  func begin(_ call: Call, _ request: CustomStringConvertible) async throws {
    let (step, outage, watchers) = model.withLock {
      model -> (Step?, AuthError?, [CheckedContinuation<Void, Never>]) in
      model.calls.append(RecordedCall(call: call, request: request.description))
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
