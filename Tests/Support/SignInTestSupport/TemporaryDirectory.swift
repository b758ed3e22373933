import Foundation

/// A fresh directory under the system temporary folder, removed when the value is released.
///
/// - Concurrency: `Sendable`; its URL never changes.
package final class TemporaryDirectory: Sendable {
  package let url: URL

  package init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("signinkit-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The names of the files in the directory, sorted.
  package func files() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
