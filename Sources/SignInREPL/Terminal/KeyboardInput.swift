import Foundation
import SignInConcurrency
import SignInKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes typed at the terminal, read by a dedicated thread (a blocked `read` never holds a
/// cooperative thread) and handed out one at a time to whoever awaits ``next()``. Bytes typed
/// while nobody reads wait in order, so type-ahead during a command is kept.
///
/// While an interrupt handler is set (a command is running), Ctrl-C calls it instead of being
/// queued; at the prompt Ctrl-C is an ordinary key for the line editor.
///
/// - Concurrency: `Sendable`; its state is guarded by a lock. One reader at a time.
package final class KeyboardInput: Sendable {
  private struct State: Sendable {
    var bytes: [UInt8] = []
    var readIndex = 0
    var isFinished = false
    var waiter: (id: UInt64, continuation: CheckedContinuation<UInt8?, Never>)?
    var nextWaiterID: UInt64 = 0
    var onInterrupt: (@Sendable () -> Void)?
  }

  private let state = Locked(State())

  package init() {}

  /// Starts the thread that reads `descriptor` until end of input.
  package func startReading(from descriptor: Int32) {
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 256)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return finish() }
        push(buffer[..<count])
      }
    }
    thread.name = "signin.keyboard"
    thread.start()
  }

  /// Queues bytes as if typed (what the reading thread calls).
  package func push(_ bytes: some Collection<UInt8>) {
    var interrupts: [@Sendable () -> Void] = []
    let resume: (CheckedContinuation<UInt8?, Never>, UInt8)? = state.withLock { state in
      for byte in bytes {
        if byte == 0x03, let handler = state.onInterrupt {
          interrupts.append(handler)
        } else {
          state.bytes.append(byte)
        }
      }
      return Self.takeWaiterIfReady(&state)
    }
    if let (continuation, byte) = resume { continuation.resume(returning: byte) }
    for interrupt in interrupts { interrupt() }
  }

  /// Ends input: waiting and later reads get `nil` once the queued bytes are used up.
  package func finish() {
    let waiter = state.withLock { state -> CheckedContinuation<UInt8?, Never>? in
      state.isFinished = true
      guard state.readIndex >= state.bytes.count else { return nil }
      defer { state.waiter = nil }
      return state.waiter?.continuation
    }
    waiter?.resume(returning: nil)
  }

  /// While set, Ctrl-C calls `handler` (on the reading thread) instead of reaching the editor.
  ///
  /// A Ctrl-C typed after the editor's last byte was taken but before a handler was set (right
  /// after the Enter that started a command) is waiting in the queue: setting a handler takes it
  /// out and calls the handler for it at once, so it cancels the command it was meant for.
  package func setInterruptHandler(_ handler: (@Sendable () -> Void)?) {
    let queuedInterrupt = state.withLock { state -> Bool in
      state.onInterrupt = handler
      guard handler != nil, let index = state.bytes[state.readIndex...].firstIndex(of: 0x03) else { return false }
      state.bytes.remove(at: index)
      return true
    }
    if queuedInterrupt { handler?() }
  }

  /// Calls the interrupt handler if one is set, as Ctrl-C would (for SIGINT).
  package func interrupt() {
    let handler = state.withLock { $0.onInterrupt }
    handler?()
  }

  /// The next byte; `nil` at end of input, or when the calling task is cancelled (the queue
  /// stays usable and the byte stays queued for the next reader).
  package func next() async -> UInt8? {
    let id = state.withLock { state -> UInt64 in
      state.nextWaiterID += 1
      return state.nextWaiterID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<UInt8?, Never>) in
        let ready: (CheckedContinuation<UInt8?, Never>, UInt8?)? = state.withLock { state in
          if Task.isCancelled { return (continuation, nil) }
          state.waiter = (id, continuation)
          if let ready = Self.takeWaiterIfReady(&state) { return (ready.0, ready.1) }
          if state.isFinished {
            state.waiter = nil
            return (continuation, nil)
          }
          return nil
        }
        if let (continuation, byte) = ready { continuation.resume(returning: byte) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<UInt8?, Never>? in
        guard let waiter = state.waiter, waiter.id == id else { return nil }
        state.waiter = nil
        return waiter.continuation
      }
      waiter?.resume(returning: nil)
    }
  }

  /// Hands the next queued byte to the waiter, if both exist.
  private static func takeWaiterIfReady(
    _ state: inout State
  ) -> (CheckedContinuation<UInt8?, Never>, UInt8)? {
    guard let waiter = state.waiter, state.readIndex < state.bytes.count else { return nil }
    let byte = state.bytes[state.readIndex]
    state.readIndex += 1
    if state.readIndex == state.bytes.count {
      state.bytes.removeAll(keepingCapacity: true)
      state.readIndex = 0
    }
    state.waiter = nil
    return (waiter.continuation, byte)
  }
}
