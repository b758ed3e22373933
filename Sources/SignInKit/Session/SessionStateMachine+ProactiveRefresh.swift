import Foundation

/// The proactive refresh: whether one runs, for which identity, and its next step.
extension SessionStateMachine {
  /// What the proactive refresh of one identity does next.
  enum ProactiveStep: Equatable {
    /// The identity is gone, `Auth` shut down, or it refreshes only on demand: the task ends.
    case stop
    case wait(Duration)
    case refresh
  }

  /// Whether `Auth` may start work of its own that outlives the call (a proactive refresh, a
  /// watch on credential revocations): not after shutdown.
  var startsBackgroundWork: Bool { !isShutDown }

  /// The identity a new proactive refresh task is for: the signed-in one, unless `Auth` shut
  /// down or ``RefreshSchedule/isAutomatic`` is off.
  var proactiveRefreshIdentity: Identity? {
    guard schedule.isAutomatic, startsBackgroundWork else { return nil }
    return identity
  }

  /// The proactive refresh's next step for `identity`, first with `afterWaiting` false, then
  /// after each wait with it true.
  ///
  /// | identity | refreshes failed in a row | after waiting | token | step |
  /// |---|---|---|---|---|
  /// | gone, or shut down | any | any | any | stop |
  /// | current | 0 | no | any | wait ``RefreshSchedule/proactiveDelay(for:now:)`` |
  /// | current | 0 | yes | more than the lead time left | wait again (refreshed meanwhile) |
  /// | current | 0 | yes | within the lead time | refresh |
  /// | current | n > 0 | no | any | wait the backoff after n failures |
  /// | current | n > 0 | yes | any | refresh |
  func nextProactiveStep(for identity: Identity, afterWaiting: Bool, now: Date, random: Double) -> ProactiveStep {
    guard proactiveRefreshIdentity == identity, let session else { return .stop }
    let failures = failedRefreshes
    if failures > 0 {
      return afterWaiting ? .refresh : .wait(schedule.backoff.delay(afterFailures: failures, random: random))
    }
    if afterWaiting, !schedule.hasTimeLeft(session, now: now) { return .refresh }
    return .wait(schedule.proactiveDelay(for: session, now: now))
  }
}
