import Foundation
import SignInConcurrency
import Testing

/// The bridge the system sheets answer through: one answer, from any thread, whatever the order
/// of answer, start and cancellation.
@Suite(.timeLimit(.minutes(3))) struct CallbackContinuationTests {
  struct Closed: Error, Equatable {}

  @Test func anAnswerFromAnotherThreadReachesTheWaitingTask() async throws {
    let answer = CallbackContinuation<Int>()
    let value = try await answer.value {
      // As AuthenticationServices does on macOS: the completion handler runs on a thread of
      // its own, not the main one.
      Thread.detachNewThread { answer.resume(with: .success(42)) }
    }
    #expect(value == 42)
  }

  @Test func onlyTheFirstAnswerCounts() async throws {
    let answer = CallbackContinuation<Int>()
    let value = try await answer.value {
      #expect(answer.resume(with: .success(1)))
      #expect(!answer.resume(with: .success(2)))
      #expect(!answer.resume(with: .failure(Closed())))
    }
    #expect(value == 1)
  }

  @Test func anAnswerBeforeTheWaitIsKeptAndStartIsNotCalled() async throws {
    let answer = CallbackContinuation<String>()
    answer.resume(with: .success("early"))
    let started = Locked(false)
    let value = try await answer.value { started.withLock { $0 = true } }
    #expect(value == "early")
    #expect(!started.withLock { $0 })
  }

  @Test func cancellingTheWaitThrowsItsErrorAsksToCloseAndIgnoresALateAnswer() async throws {
    let answer = CallbackContinuation<Int> { Closed() }
    let closeAsked = Locked(false)
    let (started, start) = AsyncStream.makeStream(of: Void.self)
    let waiting = Task {
      try await answer.value {
        start.yield()
      } onCancel: {
        closeAsked.withLock { $0 = true }
      }
    }
    // Once the sheet is up, the person closes it by cancelling the task.
    for await _ in started { break }
    waiting.cancel()
    await #expect(throws: Closed.self) { try await waiting.value }
    #expect(closeAsked.withLock { $0 })
    #expect(!answer.resume(with: .success(7)), "the system's late answer is dropped")
  }

  @Test func aTaskCancelledBeforeItWaitsNeverStartsTheSheet() async throws {
    let answer = CallbackContinuation<Int> { Closed() }
    let started = Locked(false)
    let waiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await answer.value { started.withLock { $0 = true } }
    }
    await #expect(throws: Closed.self) { try await waiting.value }
    #expect(!started.withLock { $0 })
  }
}
