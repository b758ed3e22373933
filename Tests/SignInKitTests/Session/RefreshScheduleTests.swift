import Foundation
import Testing

@testable import SignInKit

/// The refresh schedule's rules as tables, run against `RefreshSchedule` and
/// `SessionStateMachine` themselves (no `Auth`, no clock): how long the proactive refresh waits,
/// and what it does next for every session it can find.
struct RefreshScheduleTests {
  static let now = Date(timeIntervalSince1970: 1_000_000)
  static let schedule = RefreshSchedule(AuthConfiguration())

  static func session(expiringIn seconds: TimeInterval, token: String = "id.1") -> StoredSession {
    StoredSession(
      user: User(uid: "ada", email: "ada@example.com"), idToken: token, refreshToken: "rt",
      expiresAt: now.addingTimeInterval(seconds), signInProvider: .password)
  }

  @Test(arguments: [(3600, 3300), (480, 240), (10, 30), (0, 30)])
  func theProactiveDelayKeepsTheLeadButNeverLessThanHalfTheLifetimeOrThirtySeconds(
    _ lifetime: Int, _ expected: Int
  ) {
    let session = Self.session(expiringIn: TimeInterval(lifetime))
    #expect(Self.schedule.proactiveDelay(for: session, now: Self.now) == .seconds(expected))
  }

  @Test(arguments: [(3600, true), (301, true), (300, false), (0, false)])
  func aTokenHasTimeLeftOnlyBeyondTheLeadTime(_ lifetime: Int, _ hasTimeLeft: Bool) {
    #expect(Self.schedule.hasTimeLeft(Self.session(expiringIn: TimeInterval(lifetime)), now: Self.now) == hasTimeLeft)
  }

  /// What happens to the session before the proactive refresh asks for its next step.
  enum Before: String, CaseIterable, CustomTestStringConvertible {
    case signedInAnHourLeft
    case signedInTwoMinutesLeft
    case oneTransientFailure
    case threeTransientFailures
    case failureThenSuccess
    case staleAfterTheLaunchDeadline
    case storageFailure
    case cancelledRefresh
    case signedOutByTheUser
    case shutDown
    var testDescription: String { rawValue }
  }

  /// One row: what came before, whether the step follows a wait, and the step expected.
  /// Backoff delays use `random` 0 (no jitter): 60 s after one failure, 240 s after three.
  @Test(arguments: [
    (Before.signedInAnHourLeft, false, SessionStateMachine.ProactiveStep.wait(.seconds(3300))),
    (.signedInAnHourLeft, true, .wait(.seconds(3300))),
    (.signedInTwoMinutesLeft, false, .wait(.seconds(60))),
    (.signedInTwoMinutesLeft, true, .refresh),
    (.oneTransientFailure, false, .wait(.seconds(60))),
    (.oneTransientFailure, true, .refresh),
    (.threeTransientFailures, false, .wait(.seconds(240))),
    (.failureThenSuccess, false, .wait(.seconds(3300))),
    (.staleAfterTheLaunchDeadline, false, .wait(.seconds(60))),
    (.storageFailure, false, .wait(.seconds(60))),
    (.cancelledRefresh, true, .wait(.seconds(3300))),
    (.signedOutByTheUser, false, .stop),
    (.shutDown, false, .stop),
  ])
  func theProactiveRefreshDoesWhatTheTableSays(
    _ before: Before, _ afterWaiting: Bool, _ expected: SessionStateMachine.ProactiveStep
  ) throws {
    var machine = SessionStateMachine(schedule: Self.schedule)
    let hour = Self.session(expiringIn: 3600)
    func failRefresh(_ code: AuthError.Code) {
      guard let (attempt, _) = machine.refreshStarted() else { return }
      _ = machine.refreshFailed(attempt, AuthError(code, "failed"))
    }
    switch before {
    case .staleAfterTheLaunchDeadline:
      var (restore, _) = machine.restoreStarted(checking: [])
      _ = machine.restoreRead(&restore, .session(Self.session(expiringIn: 60), isFresh: false))
      _ = machine.restoreRefreshEnded(restore)
    case .signedInTwoMinutesLeft:
      _ = machine.beginLaunchRead()
      _ = machine.launchRead(.session(Self.session(expiringIn: 120), isFresh: false))
    default:
      _ = machine.beginLaunchRead()
      _ = machine.launchRead(.session(hour, isFresh: true))
    }
    let identity = try #require(machine.identity)
    switch before {
    case .oneTransientFailure: failRefresh(.network)
    case .threeTransientFailures: for _ in 0..<3 { failRefresh(.network) }
    case .storageFailure: failRefresh(.storage)
    case .cancelledRefresh: failRefresh(.cancelled)
    case .failureThenSuccess:
      failRefresh(.network)
      let started = machine.refreshStarted()
      let (attempt, _) = try #require(started)
      _ = machine.refreshSucceeded(attempt, Self.session(expiringIn: 3600, token: "id.2"))
    case .signedOutByTheUser: _ = machine.sessionEnded(.userRequested, byUser: true)
    case .shutDown: _ = machine.shutDown()
    default: break
    }
    #expect(machine.nextProactiveStep(for: identity, afterWaiting: afterWaiting, now: Self.now, random: 0) == expected)
  }

  @Test func aConfigurationWithoutAutomaticRefreshStartsNoProactiveRefresh() {
    var configuration = AuthConfiguration()
    configuration.refreshesAutomatically = false
    var machine = SessionStateMachine(schedule: RefreshSchedule(configuration))
    _ = machine.beginLaunchRead()
    _ = machine.launchRead(.session(Self.session(expiringIn: 3600), isFresh: true))
    #expect(machine.identity != nil)
    #expect(machine.proactiveRefreshIdentity == nil)
  }

  @Test func anIdentityThatIsNoLongerSignedInStops() throws {
    var machine = SessionStateMachine(schedule: Self.schedule)
    _ = machine.beginLaunchRead()
    _ = machine.launchRead(.session(Self.session(expiringIn: 3600), isFresh: true))
    let first = try #require(machine.identity)
    let (attempt, _) = machine.signInStarted(.password)
    _ = machine.signInCommitted(attempt, Self.session(expiringIn: 3600, token: "id.grace"), isNewUser: false)
    #expect(machine.nextProactiveStep(for: first, afterWaiting: true, now: Self.now, random: 0) == .stop)
    let second = try #require(machine.identity)
    #expect(
      machine.nextProactiveStep(for: second, afterWaiting: false, now: Self.now, random: 0) == .wait(.seconds(3300)))
  }
}
