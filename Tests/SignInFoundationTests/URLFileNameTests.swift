import Foundation
import Testing

@testable import SignInFoundation

@Suite struct URLFileNameTests {
  @Test func appendingAFileNameGivesWhatFoundationGives() {
    let folders = [
      URL(fileURLWithPath: "/tmp/data", isDirectory: true), URL(fileURLWithPath: "/tmp/data"),
      URL(fileURLWithPath: "/", isDirectory: true), URL(fileURLWithPath: "/tmp/with space/été", isDirectory: true),
    ]
    for folder in folders {
      for name in ["idp", "signing-key.pem", "idp/google-refresh-token", "sessions/emulator-127.0.0.1-9099"] {
        let ours = folder.appendingFileName(name)
        let theirs = folder.appendingPathComponent(name)
        #expect(ours.path == theirs.path, "\(folder.path) + \(name)")
        #expect(ours.isFileURL && ours.hasDirectoryPath == theirs.hasDirectoryPath, "\(folder.path) + \(name)")
      }
    }
  }
}
