import Foundation
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import Testing

/// Two `signin` processes on one data folder follow each other's session live (issue 50): a
/// `--watch` process prints another's sign-in and sign-out as they happen, and two processes
/// refreshing at once make one refresh between them.
@Suite(.timeLimit(.minutes(3)))
struct SigninWatchTests {
  @Test func aWatcherFollowsAnotherProcessesSignInAndSignOutWithinTwoSeconds() async throws {
    let data = SigninProcessTests.Scratch()
    let watcher = try await PseudoTerminal(arguments: ["--watch", "--data-dir", data.url.path])
    try await watcher.waitFor("nobody is signed in now. Ctrl-C to stop.")
    // A person at another signin's prompt sees the same changes between their own commands.
    let prompt = try await PseudoTerminal(arguments: ["--data-dir", data.url.path])
    try await prompt.waitFor("no previous sign-in")

    let signUp = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "signup ada@example.com"], stdin: "hunter2-pass\nhunter2-pass\n")
    #expect(signUp.status == 0, "\(signUp.output)")
    let signedUp = ContinuousClock.now
    try await watcher.waitFor("• signed in as ada@example.com")
    let followedSignIn = ContinuousClock.now - signedUp
    try await prompt.waitFor("• signed in as ada@example.com")

    let signOut = try await SigninProcessTests.signin(["--data-dir", data.url.path, "-c", "signout"])
    #expect(signOut.status == 0, "\(signOut.output)")
    let signedOut = ContinuousClock.now
    try await watcher.waitFor("• signed out (another process using this data folder signed out)")
    let followedSignOut = ContinuousClock.now - signedOut
    try await prompt.waitFor("• signed out (another process using this data folder signed out)")
    prompt.type("quit\r")
    #expect(try await prompt.exitStatus() == 0)

    // The other process has exited before the clock starts: the watcher's part is what is timed.
    #expect(followedSignIn < .seconds(2), "followed the sign-in after \(followedSignIn)")
    #expect(followedSignOut < .seconds(2), "followed the sign-out after \(followedSignOut)")
    watcher.interrupt()
    #expect(try await watcher.exitStatus() == 0)
    #expect(!watcher.transcript.contains("hunter2-pass"))
  }

  @Test func twoProcessesRefreshingAtOnceMakeOneRefreshBetweenThem() async throws {
    let data = SigninProcessTests.Scratch()
    let signUp = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "signup ada@example.com"], stdin: "hunter2-pass\nhunter2-pass\n")
    #expect(signUp.status == 0, "\(signUp.output)")
    let sessionFolder = data.url.appendingPathComponent("session")
    let uid = try #require(try FileSessionStore(directory: sessionFolder).load()?.user.uid)

    // The test holds the refresh lock, as a third process in the middle of a refresh would, so
    // both processes start their refresh before either can make it.
    let held = try await FileLock.acquire(sessionFolder.appendingPathComponent("refresh.lock"))
    let first = try await PseudoTerminal(arguments: ["--data-dir", data.url.path, "-c", "watch on; refresh"])
    let second = try await PseudoTerminal(arguments: ["--data-dir", data.url.path, "-c", "watch on; refresh"])
    for process in [first, second] { try await process.waitFor("refreshing the token…") }
    held.release()

    for process in [first, second] {
      #expect(try await process.exitStatus() == 0, "\(process.transcript)")
      #expect(process.transcript.contains("token refreshed"), "\(process.transcript)")
      #expect(!process.transcript.contains("invalid-refresh-token"), "\(process.transcript)")
    }
    let backend = try EmbeddedBackend(directory: data.url.appendingPathComponent("backend"))
    #expect(try await backend.refreshCount(of: uid) == 1)
  }

  /// A refresh that started before another process changed the profile lands after it: the
  /// change stays, and the tokens are the refresh's (without the stored generation, the refresh
  /// wrote back the session it started from, and the name was lost).
  @Test func aWriterThatStartedEarlierNeverReplacesTheNewerSession() async throws {
    let data = SigninProcessTests.Scratch()
    let signUp = try await SigninProcessTests.signin(
      ["--data-dir", data.url.path, "-c", "signup ada@example.com"], stdin: "hunter2-pass\nhunter2-pass\n")
    #expect(signUp.status == 0, "\(signUp.output)")
    let store = FileSessionStore(directory: data.url.appendingPathComponent("session"))
    let before = try #require(try store.load())

    // A's refresh waits at the network (--latency) while B changes the profile and stores it.
    let slow = try await PseudoTerminal(
      arguments: ["--data-dir", data.url.path, "--latency", "8000", "-c", "watch on; refresh"])
    try await slow.waitFor("refreshing the token…")
    let profile = try await SigninProcessTests.signin(["--data-dir", data.url.path, "-c", "profile --name Ada"])
    #expect(profile.status == 0, "\(profile.output)")
    let changed = try #require(try store.load())
    #expect(changed.user.displayName == "Ada" && changed.generation > before.generation)

    #expect(try await slow.exitStatus() == 0, "\(slow.transcript)")
    #expect(slow.transcript.contains("token refreshed"), "\(slow.transcript)")
    let after = try #require(try store.load())
    #expect(after.user.displayName == "Ada", "the refresh wrote back the session it started from")
    #expect(after.generation == changed.generation + 1)
    #expect(after.expiresAt >= changed.expiresAt)
  }
}
