import Foundation
import SignInKit
import SignInTestSupport
import Testing

/// `--tenant` and `--app-check-secret` across processes: the embedded REPL keeps a tenant's
/// users where `signin serve` serves them, and a server that requires App Check refuses a
/// client without the key.
extension SigninServeTests {
  @Test func aTenantsUsersLiveApartAndAreServedFromTheSameFolder() async throws {
    let data = SigninProcessTests.Scratch()
    let local = ["--data-dir", data.url.path, "--project", "demo"]
    let signedUp = try await SigninProcessTests.signin(
      local + ["--tenant", "shop-1", "-c", "signup ada@example.com; token --claims"], stdin: "hunter2-pass\n")
    #expect(signedUp.status == 0, "\(signedUp.output)")
    #expect(signedUp.output.contains(#""tenant":"shop-1""#))

    // The project's own users are others, and its session is its own.
    let project = try await SigninProcessTests.signin(
      local + ["-c", "whoami; signin ada@example.com"], stdin: "hunter2-pass\n")
    #expect(project.status == 1)
    #expect(project.output.contains("No user is signed in"))
    #expect(project.output.contains("error (user-not-found)") || project.output.contains("error (invalid-credential)"))
    let restored = try await SigninProcessTests.signin(local + ["--tenant", "shop-1", "-c", "whoami"])
    #expect(restored.status == 0, "\(restored.output)")
    #expect(restored.output.contains("ada@example.com") && restored.output.contains("tenant: shop-1"))

    // signin serve on the folder serves the tenant's accounts to its clients.
    let server = try await Server(local)
    var firebase = try FirebaseBackend.emulator(host: server.host, projectID: "demo")
    firebase.tenantID = "shop-1"
    _ = try await firebase.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "hunter2-pass"))
    let remote = try await SigninProcessTests.signin(
      [
        "--backend", "emulator", "--project", "demo", "--tenant", "shop-1", "--in-memory", "-c",
        "signin ada@example.com",
      ],
      stdin: "hunter2-pass\n", environment: ["FIREBASE_AUTH_EMULATOR_HOST": server.host])
    #expect(remote.status == 0, "\(remote.output)")
    _ = try await server.stop()
  }

  @Test func aServerThatRequiresAppCheckServesOnlyClientsWithTheKey() async throws {
    let server = try await Server(["--in-memory", "--project", "demo", "--app-check-secret", "test-key-1"])
    let environment = ["FIREBASE_AUTH_EMULATOR_HOST": server.host]
    let client = ["--backend", "emulator", "--project", "demo", "--in-memory", "-c", "signup ada@example.com"]
    let refused = try await SigninProcessTests.signin(client, stdin: "hunter2-pass\n", environment: environment)
    #expect(refused.status == 1)
    #expect(refused.output.contains("error (app-check-failed)"))
    let wrongKey = try await SigninProcessTests.signin(
      ["--app-check-secret", "another-key"] + client, stdin: "hunter2-pass\n", environment: environment)
    #expect(wrongKey.output.contains("error (app-check-failed)"))
    let served = try await SigninProcessTests.signin(
      ["--app-check-secret", "test-key-1"] + client, stdin: "hunter2-pass\n", environment: environment)
    #expect(served.status == 0, "\(served.output)")
    #expect(served.output.contains("signed up as ada@example.com"))
    let (status, rest) = try await server.stop()
    #expect(status == 0)
    #expect((server.opening + rest).contains("App Check: every client call needs a token"))
  }
}
