import Foundation
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// Model-based: random sequences of what can happen to a session, run against `Auth` over a
/// `ScriptedBackend` with manual clocks, each step checked against a small reference model of
/// the rules. A failure names its seed; `SIGNINKIT_MODEL_SEED=<seed>` runs that one sequence,
/// and `SIGNINKIT_MODEL_SEQUENCES=<count>` runs that many (2,000 unless told: each sequence signs
/// its tokens and keeps its accounts in the embedded backend's SQLite, about a millisecond a call
/// in a debug build).
@Suite(.timeLimit(.minutes(10)))
struct SessionStateMachineTests {
  static let sequenceCount =
    ProcessInfo.processInfo.environment["SIGNINKIT_MODEL_SEQUENCES"].flatMap(Int.init) ?? 2_000

  @Test func randomSequencesAgreeWithTheReferenceModel() async throws {
    let seeds: [UInt64]
    if let seed = ProcessInfo.processInfo.environment["SIGNINKIT_MODEL_SEED"].flatMap(UInt64.init) {
      seeds = [seed]
    } else {
      seeds = (0..<UInt64(Self.sequenceCount)).map { $0 }
    }
    let started = ContinuousClock.now
    // Sequences are independent (each has its own Auth, backend, store and clocks): run a few at
    // a time so waits on one overlap work on another.
    await withTaskGroup(of: Void.self) { group in
      var next = seeds.makeIterator()
      for _ in 0..<4 {
        guard let seed = next.next() else { break }
        group.addTask { await SequenceRun(seed: seed).run() }
      }
      while await group.next() != nil {
        guard let seed = next.next() else { continue }
        group.addTask { await SequenceRun(seed: seed).run() }
      }
    }
    let elapsed = ContinuousClock.now - started
    print("SessionStateMachineTests: \(seeds.count) sequences in \(elapsed)")
  }
}

/// What a step does.
private enum Step: CustomStringConvertible {
  enum Outcome: CaseIterable { case ok, transient, terminal }

  case signIn
  case failedSignIn
  case startSlowSignIn
  case finishSlowSignIn
  case cancelSlowSignIn
  case signOut
  case forcedRefresh(Outcome)
  case proactiveRefresh(Outcome)
  case restore
  case clearStoreElsewhere
  case shutdown

  static func random(using random: inout SeededGenerator) -> Step {
    switch Int.random(in: 0..<12, using: &random) {
    case 0, 1: .signIn
    case 2: .failedSignIn
    case 3: .startSlowSignIn
    case 4: .finishSlowSignIn
    case 5: .cancelSlowSignIn
    case 6: .signOut
    case 7: .forcedRefresh(Outcome.allCases.randomElement(using: &random)!)
    case 8, 9: .proactiveRefresh(Outcome.allCases.randomElement(using: &random)!)
    case 10: .restore
    default: .clearStoreElsewhere
    }
  }

  var description: String {
    switch self {
    case .signIn: "signIn"
    case .failedSignIn: "failedSignIn"
    case .startSlowSignIn: "startSlow"
    case .finishSlowSignIn: "finishSlow"
    case .cancelSlowSignIn: "cancelSlow"
    case .signOut: "signOut"
    case .forcedRefresh(let outcome): "forced(\(outcome))"
    case .proactiveRefresh(let outcome): "proactive(\(outcome))"
    case .restore: "restore"
    case .clearStoreElsewhere: "clearStore"
    case .shutdown: "shutdown"
    }
  }
}

/// A state as the tests compare it: users by uid.
private enum ObservedState: Equatable, CustomStringConvertible {
  case restoring
  case signedOut(SignOutReason)
  case signingIn
  case signedIn(String, SessionHealth)

  init(_ state: AuthState) {
    switch state {
    case .restoring: self = .restoring
    case .signedOut(let reason): self = .signedOut(reason)
    case .signingIn: self = .signingIn
    case .signedIn(let user, let health): self = .signedIn(user.uid, health)
    }
  }

  var uid: String? {
    if case .signedIn(let uid, _) = self { return uid }
    return nil
  }

  var description: String {
    switch self {
    case .restoring: "restoring"
    case .signedOut(let reason): "out(\(reason))"
    case .signingIn: "signingIn"
    case .signedIn(let uid, let health): "in(\(uid), \(health))"
    }
  }
}

/// An event as the tests compare it.
private enum ObservedEvent: Equatable, CustomStringConvertible {
  case initialState(ObservedState)
  case signedIn(String)
  case signedOut(SignOutReason)
  case tokenRefreshed
  case userUpdated(String)
  case failed(AuthError.Code)

  init(_ event: AuthEvent) {
    switch event {
    case .initialState(let state): self = .initialState(ObservedState(state))
    case .signedIn(let user, _): self = .signedIn(user.uid)
    case .signedOut(let reason): self = .signedOut(reason)
    case .tokenRefreshed: self = .tokenRefreshed
    case .userUpdated(let user): self = .userUpdated(user.uid)
    case .failed(let error): self = .failed(error.code)
    }
  }

  var description: String {
    switch self {
    case .initialState(let state): "initial(\(state))"
    case .signedIn(let uid): "signedIn(\(uid))"
    case .signedOut(let reason): "signedOut(\(reason))"
    case .tokenRefreshed: "refreshed"
    case .userUpdated(let uid): "updated(\(uid))"
    case .failed(let code): "failed(\(code.rawValue))"
    }
  }
}

/// The reference model: what the rules say each step does, written as plainly as possible.
private struct Model {
  enum Settled: Equatable {
    case restoring
    case signedOut(SignOutReason)
    case signedIn(String, SessionHealth)

    var observed: ObservedState {
      switch self {
      case .restoring: .restoring
      case .signedOut(let reason): .signedOut(reason)
      case .signedIn(let uid, let health): .signedIn(uid, health)
      }
    }

    var uid: String? {
      if case .signedIn(let uid, _) = self { return uid }
      return nil
    }
  }

  var settled = Settled.restoring
  /// The slow sign-in in flight, and whether it is still the newest operation (then it owns the
  /// screen and may commit).
  var slowSignInIsNewest: Bool?
  var shown = ObservedState.restoring
  var shownUser: String?
  var states: [ObservedState] = [.restoring]
  var events: [ObservedEvent] = []
  var storedUID: String?
  var hasReadStore = false
  var isShutDown = false
  /// Whether the proactive refresh task is running for the signed-in identity.
  var refreshesProactively = false

  var ownsScreen: Bool { slowSignInIsNewest == true }

  mutating func show(_ state: ObservedState) {
    guard !isShutDown, state != shown else { return }
    shown = state
    states.append(state)
    switch state {
    case .signedIn(let uid, _): shownUser = uid
    case .signedOut: shownUser = nil
    case .restoring, .signingIn: break
    }
  }

  mutating func showSettledUnlessOwned() {
    if !ownsScreen { show(settled.observed) }
  }

  mutating func emit(_ event: ObservedEvent) {
    if !isShutDown { events.append(event) }
  }

  /// The first call reads the store (a stored session's token is fresh: the clock has not moved
  /// before the launch settled).
  mutating func settleLaunch() {
    guard !hasReadStore else { return }
    hasReadStore = true
    guard settled == .restoring else { return }
    if let storedUID {
      settled = .signedIn(storedUID, .fresh)
      refreshesProactively = true
    } else {
      settled = .signedOut(.initial)
    }
  }

  mutating func showSettledLaunch() {
    guard shown == .restoring, !ownsScreen, settled != .restoring else { return }
    show(settled.observed)
    emit(.initialState(settled.observed))
  }

  /// A sign-in starts: it is the newest operation and owns the screen.
  mutating func startSignIn() {
    settleLaunch()
    if slowSignInIsNewest != nil { slowSignInIsNewest = false }
    show(.signingIn)
  }

  mutating func commitSignIn(_ uid: String) {
    settled = .signedIn(uid, .fresh)
    storedUID = uid
    refreshesProactively = true
    show(settled.observed)
    emit(.signedIn(uid))
  }

  mutating func signOut() {
    settleLaunch()
    if slowSignInIsNewest != nil { slowSignInIsNewest = false }
    storedUID = nil
    endSession(.userRequested)
    show(settled.observed)
  }

  mutating func endSession(_ reason: SignOutReason) {
    settled = .signedOut(reason)
    refreshesProactively = false
    showSettledUnlessOwned()
    emit(.signedOut(reason))
  }

  /// A refresh of the signed-in session with `outcome`; returns whether it was attempted.
  mutating func refresh(_ outcome: Step.Outcome) -> Bool {
    guard let uid = settled.uid else { return false }
    settled = .signedIn(uid, .refreshing)
    showSettledUnlessOwned()
    switch outcome {
    case .ok:
      if storedUID == uid {
        settled = .signedIn(uid, .fresh)
        showSettledUnlessOwned()
        emit(.tokenRefreshed)
      } else {
        endSession(.storageCleared)
      }
    case .transient:
      settled = .signedIn(uid, .stale)
      showSettledUnlessOwned()
      emit(.failed(.network))
    case .terminal:
      storedUID = nil
      endSession(AuthError.Code.invalidRefreshToken.signOutReason)
    }
    return true
  }

  mutating func restore() {
    if settled.uid != nil { return }
    hasReadStore = true
    if settled == .restoring { showSettledUnlessOwned() }
    if let storedUID {
      settled = .signedIn(storedUID, .fresh)
      refreshesProactively = true
    } else {
      settled = .signedOut(.initial)
    }
    showSettledUnlessOwned()
    emit(.initialState(settled.observed))
  }
}

/// One seeded sequence: the steps, the `Auth` under test, and the model beside it.
private struct SequenceRun {
  let seed: UInt64

  func run() async {
    do {
      try await runSteps()
    } catch {
      Issue.record("seed \(seed): \(error)")
    }
  }

  private func runSteps() async throws {
    var random = SeededGenerator(seed: seed)
    let harness = Harness(configuration: AuthConfiguration(eventBufferLimit: 10_000))
    let backend = harness.backend
    var model = Model()

    // Half the sequences launch over a session a previous run stored.
    if Bool.random(using: &random) {
      let previous = Auth(
        backend: backend, store: harness.store, clock: ManualClock(),
        configuration: AuthConfiguration(refreshesAutomatically: false),
        now: { [clock = harness.clock] in clock.date })
      model.storedUID = try await previous.signInAnonymously().user.uid
      await previous.shutdown()
    }

    let auth = harness.auth
    let states = [Recorder.start(auth.states), Recorder.start(auth.states)]
    let events = Recorder.start(auth.events)
    var steps = (0..<Int.random(in: 1...12, using: &random)).map { _ in
      Step.random(using: &random)
    }
    steps.append(.shutdown)
    var slow: Task<SignInResult, any Error>?
    var madeACall = false
    var done: [Step] = []

    func context() -> Comment {
      "seed \(seed): \(done) of \(steps); model states \(model.states), events \(model.events)"
    }

    for step in steps {
      done.append(step)
      if ProcessInfo.processInfo.environment["SIGNINKIT_MODEL_SEED"] != nil {
        print("step \(step); model \(model.settled) shown \(model.shown)")
      }
      switch step {
      case .signIn:
        model.startSignIn()
        let uid = try await auth.signInAnonymously().user.uid
        model.commitSignIn(uid)
      case .failedSignIn:
        backend.script(.signUp, .fail(AuthError(.tooManyRequests, "Slow down.")))
        model.startSignIn()
        await #expect(throws: AuthError.self, context()) { try await auth.signInAnonymously() }
        model.show(model.settled.observed)
        model.emit(.failed(.tooManyRequests))
      case .startSlowSignIn:
        guard slow == nil else { continue }
        backend.script(.signUp, .delay(.seconds(10)))
        model.startSignIn()
        model.slowSignInIsNewest = true
        let sleepers = harness.backendClock.sleeperCount
        slow = Task { try await auth.signInAnonymously() }
        await harness.backendClock.sleepers(atLeast: sleepers + 1)
      case .finishSlowSignIn:
        guard let task = slow else { continue }
        harness.backendClock.advance(by: .seconds(10))
        let result = await task.result
        if model.slowSignInIsNewest == true {
          let uid = try result.get().user.uid
          model.slowSignInIsNewest = nil
          model.commitSignIn(uid)
        } else {
          #expect(throws: AuthError.self, context()) { try result.get() }
          model.slowSignInIsNewest = nil
        }
        slow = nil
      case .cancelSlowSignIn:
        guard let task = slow else { continue }
        task.cancel()
        let result = await task.result
        #expect(throws: AuthError.self, context()) { try result.get() }
        let owned = model.ownsScreen
        model.slowSignInIsNewest = nil
        if owned { model.show(model.settled.observed) }
        slow = nil
      case .signOut:
        try await auth.signOut()
        model.signOut()
      case .forcedRefresh(let outcome):
        model.settleLaunch()
        model.showSettledLaunch()
        let ownsStore = model.settled.uid != nil && model.storedUID == model.settled.uid
        if model.settled.uid != nil { script(outcome, on: backend) }
        let attempted = model.refresh(outcome)
        let succeeded = (try? await auth.idToken(forceRefresh: true)) != nil
        #expect(succeeded == (attempted && outcome == .ok && ownsStore), context())
      case .proactiveRefresh(let outcome):
        guard model.refreshesProactively, !model.isShutDown, model.settled.uid != nil else {
          continue
        }
        await harness.clock.sleepers(atLeast: 1)
        script(outcome, on: backend)
        // Whatever the outcome, the refresh ends with one event.
        let wanted = model.events.count + 1
        _ = model.refresh(outcome)
        harness.clock.advance(by: Harness.tokenLifetime)
        await events.wait { $0.count >= wanted }
        // The event is published inside the refresh, before its single flight ends: a forced
        // refresh in the next step would join it (and take its result, not its own script).
        // Wait for the loop to be asleep again, which it is only once the flight is over.
        if model.refreshesProactively { await harness.clock.sleepers(atLeast: 1) }
      case .restore:
        model.restore()
        _ = try await auth.restorePreviousSignIn()
      case .clearStoreElsewhere:
        try harness.store.clear()
        model.storedUID = nil
      case .shutdown:
        await auth.shutdown()
        model.isShutDown = true
        // A sign-in still in flight is dropped: it stores and publishes nothing.
        if let task = slow {
          harness.backendClock.advance(by: .seconds(10))
          let result = await task.result
          #expect(throws: AuthError.self, context()) { try result.get() }
          slow = nil
        }
        await #expect(throws: AuthError.self, context()) { try await auth.signInAnonymously() }
      }
      switch step {
      case .clearStoreElsewhere, .shutdown: break
      default: madeACall = true
      }

      // After every step: the screen, the snapshot and the store say what the model says.
      let shown = ObservedState(await harness.shownState())
      #expect(shown == model.shown, context())
      #expect(ObservedState(auth.currentState) == model.shown, context())
      #expect(auth.currentUser?.uid == model.shownUser, context())
      #expect(try harness.store.load()?.user.uid == model.storedUID, context())
      // A published signed-in state is already persisted.
      if let uid = shown.uid, !model.isShutDown, model.storedUID != nil {
        #expect(try harness.store.load()?.user.uid == uid, context())
      }
    }

    for recorder in states { await recorder.waitForFinish() }
    let expectedCount = model.events.count
    await events.wait { $0.count >= expectedCount }
    let observedEvents = events.values.map(ObservedEvent.init)
    #expect(observedEvents == model.events, context())

    for recorder in states {
      let seen = recorder.values.map(ObservedState.init)
      // Every subscriber sees the published sequence (conflated, never reordered), ending with
      // the last state published before shutdown…
      #expect(seen.isSubsequence(of: model.states), "saw \(seen); \(context())")
      #expect(seen.last == model.states.last, "saw \(seen); \(context())")
      // …and `restoring` only first.
      #expect(!seen.dropFirst().contains(.restoring), "saw \(seen); \(context())")
    }
    if madeACall {
      #expect(model.states.last != .restoring, context())
    }
  }

  private func script(_ outcome: Step.Outcome, on backend: ScriptedBackend) {
    switch outcome {
    case .ok: break
    case .transient: backend.script(.refresh, .fail(AuthError(.network, "Offline.")))
    case .terminal:
      backend.script(.refresh, .fail(AuthError(.invalidRefreshToken, "Revoked.")))
    }
  }
}
