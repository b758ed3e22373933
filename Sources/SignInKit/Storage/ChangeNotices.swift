import Foundation
import SignInConcurrency

/// Named notices that something changed, posted by one process and heard by every process that
/// listens for the name: what ``KeychainSessionStore`` posts after each write, so an app and its
/// extensions follow one session. On Apple platforms they are Darwin notifications (`notify(3)`);
/// elsewhere, and in tests, ``LocalChangeNotices`` carries them within one process.
///
/// - Concurrency: `Sendable`; calls may come from any thread.
package protocol ChangeNotices: Sendable {
  /// Tells every listener of `name`, in this process and others.
  func post(_ name: String)
  /// A value once listening starts, then each time `name` is posted, until the consumer stops.
  /// Posts close together may come as one value. The first value lets the listener read what it
  /// follows once it listens, so a post made before then is not missed.
  func notices(named name: String) -> AsyncStream<Void>
}

/// ``ChangeNotices`` within one process: for tests (two stores on one fake keychain stand for two
/// processes) and for platforms without Darwin notifications.
///
/// - Concurrency: `Sendable`; `Locked`-guarded listeners.
package final class LocalChangeNotices: ChangeNotices {
  private struct Listener {
    var name: String
    var continuation: AsyncStream<Void>.Continuation
  }

  private let listeners = Locked<(byID: [Int: Listener], next: Int)>(([:], 0))

  /// The notices of this process.
  package static let shared = LocalChangeNotices()

  package init() {}

  package func post(_ name: String) {
    let continuations = listeners.withLock { $0.byID.values.filter { $0.name == name }.map(\.continuation) }
    for continuation in continuations { continuation.yield() }
  }

  package func notices(named name: String) -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let id = listeners.withLock { listeners in
      defer { listeners.next += 1 }
      listeners.byID[listeners.next] = Listener(name: name, continuation: continuation)
      return listeners.next
    }
    continuation.onTermination = { [listeners] _ in listeners.withLock { _ = $0.byID.removeValue(forKey: id) } }
    continuation.yield()
    return stream
  }
}
