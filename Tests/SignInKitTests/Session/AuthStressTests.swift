import Foundation
import SignInConcurrency
import SignInKitTesting
import SignInTestSupport
import Synchronization
import Testing

@testable import SignInKit

@Suite(.timeLimit(.minutes(5)))
struct AuthStressTests {
  enum Operation: CaseIterable {
    case signUp, signInAnonymously, signOut, idToken, forcedIdToken, cancelledSignIn
  }

  /// Each sign-in creates a new account, so every uid names exactly one sign-in operation.
  @Test func thousandRandomInterleavingsEndInTheLastCommittedStateAndShowOnlyLegalSequences()
    async throws
  {
    for seed in 0..<UInt64(1_000) {
      try await runInterleaving(seed: seed)
    }
  }

  private func runInterleaving(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let harness = Harness(
      configuration: AuthConfiguration(eventBufferLimit: 10_000), interleaving: 4)
    let auth = harness.auth
    let states = Recorder.start(auth.states)
    let events = Recorder.start(auth.events)
    let returned = Locked<Set<String>>([])  // uids of sign-ins that returned successfully

    let operations = (0..<Int.random(in: 3...8, using: &random)).map { _ in
      Operation.allCases.randomElement(using: &random)!
    }
    let cancelAfter = operations.map { _ in Int.random(in: 0...6, using: &random) }
    await withTaskGroup(of: Void.self) { group in
      for (index, operation) in operations.enumerated() {
        group.addTask {
          switch operation {
          case .signUp:
            if let result = try? await auth.signUp(
              email: "user\(index)@example.com", password: "correct horse")
            {
              returned.withLock { _ = $0.insert(result.user.uid) }
            }
          case .signInAnonymously:
            if let result = try? await auth.signInAnonymously() {
              returned.withLock { _ = $0.insert(result.user.uid) }
            }
          case .signOut:
            try? await auth.signOut()
          case .idToken:
            _ = try? await auth.idToken()
          case .forcedIdToken:
            _ = try? await auth.idToken(forceRefresh: true)
          case .cancelledSignIn:
            let attempt = Task { try await auth.signInAnonymously() }
            for _ in 0..<cancelAfter[index] { await Task.yield() }
            attempt.cancel()
            if let result = try? await attempt.value {
              returned.withLock { _ = $0.insert(result.user.uid) }
            }
          }
        }
      }
    }
    let finalState = await harness.shownState()
    let currentUser = auth.currentUser
    await auth.shutdown()
    await states.waitForFinish()
    await events.waitForFinish()
    let context = Comment(rawValue: "seed \(seed): \(operations)")

    // The final state is the one the last committed sign-in or sign-out produced.
    let lastIdentityEvent = events.values.last { event in
      switch event {
      case .signedIn, .signedOut: true
      default: false
      }
    }
    switch lastIdentityEvent {
    case .signedIn(let user, _)?:
      #expect(finalState.user?.uid == user.uid, context)
    case .signedOut(let reason)?:
      #expect(finalState == .signedOut(reason), context)
    default:
      // No sign-in or sign-out committed: the launch still settled on "nothing stored".
      #expect(finalState == .signedOut(.initial), context)
    }
    #expect(states.values.last == finalState, context)
    #expect(currentUser?.uid == finalState.user?.uid, context)
    #expect(try harness.store.load()?.user.uid == finalState.user?.uid, context)

    // Only users whose sign-in returned successfully were ever shown…
    let shown = Set(states.values.compactMap(\.user?.uid))
    #expect(shown.isSubset(of: returned.withLock { $0 }), context)
    // …and once another identity or a sign-out followed a user, that user never came back.
    var ended: Set<String> = []
    var current: String?
    for state in states.values {
      switch state {
      case .signedIn(let user, _):
        #expect(!ended.contains(user.uid), "\(user.uid) shown again after it ended; \(context)")
        if let current, current != user.uid { ended.insert(current) }
        current = user.uid
      case .signedOut:
        if let current { ended.insert(current) }
        current = nil
      case .restoring, .signingIn:
        break
      }
    }
  }
}
