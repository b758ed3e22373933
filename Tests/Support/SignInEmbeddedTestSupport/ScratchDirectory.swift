import Foundation

/// A fresh directory, removed with the value.
///
/// - Concurrency: `Sendable`, immutable.
package final class ScratchDirectory: Sendable {
  package let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("signinkit-embedded-\(UUID().uuidString)", isDirectory: true)

  package init() {}

  deinit { try? FileManager.default.removeItem(at: url) }
}
