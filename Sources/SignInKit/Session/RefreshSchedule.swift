import Foundation

/// When the session's tokens are refreshed ahead of expiry, and how retries back off: the
/// refresh rules of ``AuthConfiguration``, for ``SessionStateMachine``.
///
/// - Concurrency: `Sendable` value.
struct RefreshSchedule: Sendable {
  /// Refresh this long before the ID token expires (``AuthConfiguration/refreshLeadTime``).
  var leadTime: Duration
  /// The shortest wait between two proactive refreshes
  /// (``AuthConfiguration/minimumRefreshInterval``).
  var minimumInterval: Duration
  var backoff: RetryBackoff
  /// Whether tokens are refreshed ahead of expiry at all
  /// (``AuthConfiguration/refreshesAutomatically``).
  var isAutomatic: Bool

  init(_ configuration: AuthConfiguration) {
    leadTime = configuration.refreshLeadTime
    minimumInterval = configuration.minimumRefreshInterval
    backoff = configuration.retryBackoff
    isAutomatic = configuration.refreshesAutomatically
  }

  /// Whether `session`'s ID token has more than the lead time left at `now`.
  func hasTimeLeft(_ session: StoredSession, now: Date) -> Bool {
    session.expiresAt.timeIntervalSince(now) > leadTime.seconds
  }

  /// How long to wait before refreshing `session` ahead of its expiry: until the lead time
  /// before it expires, but never less than half the token's remaining lifetime and never less
  /// than the minimum interval. A token issued for less than the lead time (a 10 s emulator
  /// token) would otherwise be refreshed again the moment it arrives.
  func proactiveDelay(for session: StoredSession, now: Date) -> Duration {
    let remaining = max(0, session.expiresAt.timeIntervalSince(now))
    let floor = max(minimumInterval.seconds, remaining / 2)
    let seconds = max(remaining - leadTime.seconds, floor)
    return .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }
}
