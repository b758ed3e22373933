import Foundation
import SignInKit
import Testing

/// The REPL's Google API commands against a real third-party OpenID provider
/// (`oidc-provider-mock`, started by `.ci/run`): `signin --idp google.com=ISSUER` signs in at
/// the issuer with the test as the browser, then reads the granted scopes, adds one, and gets an
/// access token.
@Suite(
  .serialized, .timeLimit(.minutes(3)),
  .enabled(
    if: SigninOIDCPeer.issuer != nil,
    "no OpenID peer: set SIGNINKIT_OIDC_ISSUER to a running oidc-provider-mock (bash .ci/run starts one)"))
struct SigninOIDCPeerTests {
  /// The browser: waits for the URL the REPL prints, submits the mock's login form for
  /// `subject`, and follows its redirect to the REPL's loopback listener.
  static func approve(on terminal: PseudoTerminal, as subject: String) async throws {
    try await terminal.waitFor("Open this URL to sign in:")
    let url = try #require(URL(string: "http" + (try await terminal.line(after: "http"))))
    let form = "sub=\(subject.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? subject)"
    _ = try await URLSessionTransport().send(
      HTTPRequest(
        url: url, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8)))
  }

  @Test func googleAPICommandsWorkAgainstARealIssuerAndItsSessionIsRestoredInTheNextProcess() async throws {
    let scratch = SigninProcessTests.Scratch()
    let arguments = [
      "--data-dir", scratch.url.path, "--idp",
      "google.com=\(SigninOIDCPeer.issuer!),\(SigninOIDCPeer.clientID),peer-secret",
    ]
    let terminal = try await PseudoTerminal(arguments: arguments)
    try await terminal.waitFor("no previous sign-in")
    terminal.type("scopes\r")
    try await terminal.waitFor("There is no Google session at the issuer")
    terminal.type("google\r")
    try await Self.approve(on: terminal, as: "ada@example.com")
    try await terminal.waitFor("signed in as ada@example.com")

    terminal.type("scopes\r")
    let granted = try await terminal.line(after: "granted: ")
    #expect(granted.split(separator: " ").contains("openid"))
    #expect(!granted.split(separator: " ").contains("address"))

    terminal.type("add-scopes address\r")
    try await Self.approve(on: terminal, as: "ada@example.com")
    let added = try await terminal.line(after: "granted: ")
    #expect(added.split(separator: " ").contains("address"))

    terminal.type("access-token\r")
    let shown = try await terminal.line(after: "access token: ")
    #expect(shown.contains("characters") && shown.contains("use --reveal to show it"))
    terminal.type("quit\r")
    // Leaving the prompt is a success; the first `scopes`, before the sign-in, said it failed.
    #expect(try await terminal.exitStatus() == 0)

    // The next process restores the issuer's session from its refresh token, then signs out,
    // which revokes it.
    let next = try await SigninProcessTests.signin(arguments + ["-c", "access-token; scopes; signout"])
    #expect(next.status == 0, "\(next.output)")
    #expect(next.output.contains("access token: ") && next.output.contains("address"))
    #expect(!next.output.contains("Open this URL"))
    let after = try await SigninProcessTests.signin(arguments + ["-c", "access-token"])
    #expect(after.status == 1)
    #expect(after.output.contains("sign in first"), "\(after.output)")
  }
}

/// Where the OpenID peer runs (`SIGNINKIT_OIDC_ISSUER`) and the client the tests use there.
enum SigninOIDCPeer {
  static let issuer = ProcessInfo.processInfo.environment["SIGNINKIT_OIDC_ISSUER"].flatMap { $0.isEmpty ? nil : $0 }
  static let clientID = "signinkit-peer-test"
}
