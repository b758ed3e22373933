#if os(Linux) || os(macOS)  // Process exists there only.
  import Foundation

  /// Keeps `Process.run()` apart from tests that hold many descriptors open.
  ///
  /// On Linux, `Process.run()` in swift-corelibs-foundation scans `/proc/self/fd` and copies 256
  /// bytes of each directory entry's name, reading past short entries (swiftlang/
  /// swift-corelibs-foundation#5472). With a thousand or more descriptors open the last entry
  /// sits at the end of the listing's buffer, and the over-read leaves it: AddressSanitizer stops
  /// the run with a heap-buffer-overflow, and without it the read can fault. So every test that
  /// launches a process does it through ``launch(_:)``, and every test that opens hundreds of
  /// descriptors does it inside ``holdingManyDescriptors(_:)``; the two never overlap. Launches
  /// may overlap one another, and so may descriptor-heavy tests.
  ///
  /// - Concurrency: `Sendable`; its counters are guarded by an `NSCondition`. ``launch(_:)``
  ///   blocks its thread: call it only off the cooperative pool (inside ``runBlocking(_:)``).
  ///   From async code use ``launching(_:)``, which waits on a thread of its own: a pool thread
  ///   blocked here could be the one the descriptor-heavy test needs to finish.
  package final class ProcessLaunchGate: @unchecked Sendable {
    // @unchecked: `launching` and `heavy` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var launching = 0
    private var heavy = 0

    /// The one gate of this test process.
    package static let shared = ProcessLaunchGate()

    /// Runs `process`, waiting first while a descriptor-heavy test is in progress.
    package func launch(_ process: Process) throws {
      enterLaunch()
      defer { leaveLaunch() }
      try process.run()
    }

    /// Runs `body` (which launches a process and returns at once, as `Process.run()` does) once
    /// no descriptor-heavy test is in progress, waiting for that on a thread of its own.
    package func launching<T>(_ body: () throws -> T) async throws -> T {
      try await runBlocking { [self] in enterLaunch() }
      defer { leaveLaunch() }
      return try body()
    }

    private func enterLaunch() {
      condition.lock()
      while heavy > 0 { condition.wait() }
      launching += 1
      condition.unlock()
    }

    private func leaveLaunch() {
      condition.lock()
      launching -= 1
      condition.broadcast()
      condition.unlock()
    }

    /// Runs `body`, which opens many descriptors and must have closed them all when it returns,
    /// once no process is being launched; launches wait until it is done.
    package func holdingManyDescriptors<T: Sendable>(_ body: () async throws -> T) async throws -> T {
      try await runBlocking { [self] in enterHeavy() }
      defer { leaveHeavy() }
      return try await body()
    }

    private func enterHeavy() {
      condition.lock()
      while launching > 0 { condition.wait() }
      heavy += 1
      condition.unlock()
    }

    private func leaveHeavy() {
      condition.lock()
      heavy -= 1
      condition.broadcast()
      condition.unlock()
    }
  }
#endif
