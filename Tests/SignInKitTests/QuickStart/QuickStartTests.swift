import Foundation
import SignInKitTesting
import Testing

@testable import SignInKit

@Suite(.timeLimit(.minutes(3)))
struct QuickStartTests {
  static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("QuickStart.swift")
  static let readme = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  @Test func readmeShowsTheQuickStartThatCompilesHere() throws {
    let code = try String(contentsOf: Self.source, encoding: .utf8)
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    #expect(readme.contains("```swift\n" + code + "```"))
  }

  @Test func quickStartSignsUpThenRestoresOnTheNextLaunch() async throws {
    let backend = ScriptedBackend()
    let store = InMemorySessionStore()
    let first = try await quickStart(backend: backend, store: store)
    #expect(!first.isEmpty)
    #expect(backend.count(of: .signUp) == 1)
    let second = try await quickStart(backend: backend, store: store)
    #expect(second == first)  // restored from the store, no new sign-in
    #expect(backend.count(of: .signUp) == 1)
    #expect(backend.count(of: .signInWithPassword) == 0)
  }
}
