import Foundation

/// Runs `body`, which blocks (waits for a process, reads a pipe to its end), on a thread of its
/// own and returns its result to the awaiting task. A blocking call made directly in a test
/// holds one of the few cooperative threads; a handful of them starve every other test.
///
/// - Concurrency: `body` runs on a new thread; the caller suspends without holding a thread.
package func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
  }
}
