import Foundation
import SignInConcurrency

/// A wall clock a test moves by hand.
///
/// - Concurrency: `Sendable`, a lock guards the date.
package final class TestDate: Sendable {
  private let date = Locked(Date(timeIntervalSince1970: 1_800_000_000))

  package init() {}

  package var now: Date { date.withLock { $0 } }
  package func advance(_ seconds: TimeInterval) { date.withLock { $0.addTimeInterval(seconds) } }
}
