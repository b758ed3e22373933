import Foundation
import SignInEmbeddedTestSupport
import SignInKitTesting
import SignInStorage
import SignInTestSupport
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

@Suite(.timeLimit(.minutes(2)))
struct EmbeddedBackendCrashTests {
  /// The `embedded-writer` helper, built beside the test bundle.
  static var writer: URL {
    var directory = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("embedded-writer").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("embedded-writer")
  }

  @Test func sigkillDuringWritesLosesNoCommittedAccountAndTearsNothing() async throws {
    for round in 0..<3 {
      let data = ScratchDirectory()
      let process = Process()
      process.executableURL = Self.writer
      process.arguments = [data.url.path]
      let output = Pipe()
      process.standardOutput = output
      try await ProcessLaunchGate.shared.launching { try process.run() }
      // Let it commit some accounts, then kill it without warning in the middle of its loop.
      var committed: [String] = []
      var buffer = Data()
      while committed.count < 20 + round * 15 {
        let chunk = output.fileHandleForReading.availableData
        guard !chunk.isEmpty else { break }
        buffer.append(chunk)
        committed = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
      }
      #expect(committed.count >= 20 + round * 15, "the writer must have committed before the kill")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal)

      // Every account the writer reported is there, and the directory opens cleanly.
      let reopened = try EmbeddedBackend(directory: data.url)
      // A kill leaves a sound log: its committed transactions are all read, and nothing is reported.
      #expect(reopened.storageWarnings.isEmpty, "round \(round): \(reopened.storageWarnings)")
      for (index, uid) in committed.enumerated() where uid.count == 28 {
        #expect(await reopened.uid(forEmail: "user\(index)@example.com") == uid, "round \(round)")
      }
      await reopened.close()
      let check = try EmbeddedStore.opened(in: data.url).connection.use { try $0.rows("PRAGMA integrity_check") }
      #expect(check.first?.text(0) == "ok", "round \(round)")
    }
  }
}
