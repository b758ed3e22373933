import Foundation
import SignInKit
import SignInWire

/// Wrong passwords and second-factor codes, counted in the database by key (an email,
/// `phone:NUMBER`, or ``throttleKey(of:)``), so every process on a folder counts them; too many
/// in ``EmbeddedBackend/Configuration/attemptWindow`` slow the next attempts down.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor (`EmbeddedBackend.throttle`).
struct LoginThrottle {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date

  /// The key wrong passwords and wrong second-factor codes are counted under: the account's
  /// email, or its uid when it has none.
  static func throttleKey(of account: EmbeddedDatabase.Account) -> String {
    account.email ?? "uid:\(account.uid)"
  }

  /// Failures before this moment no longer count (``Configuration/attemptWindow`` ago).
  private var throttleWindowStart: Date { now().addingTimeInterval(-configuration.attemptWindow.seconds) }

  /// Records a wrong password or code for throttle `key`, in the database: every process on the
  /// folder counts it.
  func noteLoginFailure(_ key: String) throws {
    try recordFailure(
      key: key, at: now(), windowStart: throttleWindowStart,
      cap: configuration.limits.loginFailures)
  }

  /// How many failures throttle `key` (an email, `phone:NUMBER`, ``throttleKey(of:)``) has in
  /// the current window.
  func recentLoginFailures(for key: String) throws -> Int {
    try failures(key: key, since: throttleWindowStart).count
  }

  /// Forgets throttle `key`'s failures (a successful sign-in, a reset password).
  func forgetLoginFailures(_ key: String) {
    // Best effort: a throttle left behind only slows the next wrong attempts.
    try? clearFailures(key: key)
  }

  /// Refuses an attempt that comes too soon after too many failures for `key` (an email, or
  /// ``throttleKey(of:)``); see ``Configuration/maxFailedAttempts``.
  func checkThrottle(
    for key: String, what: String = "this email", remedy: String = "or reset the password"
  ) throws {
    let windowStart = throttleWindowStart
    let recent = try failures(key: key, since: windowStart)
    guard recent.count >= configuration.maxFailedAttempts, let last = recent.last else { return }
    let doublings = min(recent.count - configuration.maxFailedAttempts, 20)
    let delay = min(configuration.throttleDelay.seconds * Double(1 << doublings), configuration.attemptWindow.seconds)
    let wait = last.addingTimeInterval(delay).timeIntervalSince(now())
    guard wait > 0 else { return }
    // In the detail and as Retry-After, so the wait reaches a client over either transport.
    let seconds = Int(wait.rounded(.up))
    var failure = FirebaseFailure(
      .tooManyAttemptsTryLater,
      "Too many failed sign-in attempts for \(what). Try again in \(seconds) seconds, \(remedy).")
    // The transports turn it into the client's `AuthError.retryAfter`, from their own clock.
    failure.retryAfterSeconds = seconds
    throw AuthError(failure)
  }

  // MARK: - Rows

  /// Records a failure for `key` at `at`. Failures older than `windowStart` go first, then the
  /// oldest beyond `cap` in all: the table is bounded in time and in rows.
  private func recordFailure(key: String, at: Date, windowStart: Date, cap: Int) throws {
    try store.transaction {
      try store.run(
        "DELETE FROM login_failures WHERE tenant = :tenant AND at <= ?", [.real(windowStart.timeIntervalSince1970)])
      try store.run(
        "INSERT INTO login_failures (tenant, key, at) VALUES (:tenant, ?, ?)",
        [.text(key), .real(at.timeIntervalSince1970)])
      try store.run(
        "DELETE FROM login_failures WHERE tenant = :tenant AND id NOT IN "
          + "(SELECT id FROM login_failures WHERE tenant = :tenant ORDER BY id DESC LIMIT ?)", [.integer(Int64(cap))])
    }
  }

  /// When `key`'s failures since `windowStart` happened, oldest first.
  private func failures(key: String, since windowStart: Date) throws -> [Date] {
    try store.rows(
      "SELECT at FROM login_failures WHERE tenant = :tenant AND key = ? AND at > ? ORDER BY at",
      [.text(key), .real(windowStart.timeIntervalSince1970)]
    ).compactMap { $0.real(0).map(Date.init(timeIntervalSince1970:)) }
  }

  private func clearFailures(key: String) throws {
    try store.run("DELETE FROM login_failures WHERE tenant = :tenant AND key = ?", [.text(key)])
  }
}
