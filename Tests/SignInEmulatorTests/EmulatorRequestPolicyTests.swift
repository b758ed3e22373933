import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// Items 2 and 3 of the third hardening: links never come from the request's `Host`, a foreign
/// `Host` (DNS rebinding) or `Origin` (a cross-site page) is refused before any work, CORS is
/// answered for the origins allowed, and JSON endpoints take JSON only.
@Suite struct EmulatorRequestPolicyTests {
  static let project = "/identitytoolkit.googleapis.com/v1/projects/signinkit-local"
  static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key"

  let backend: EmbeddedBackend
  let routes: FirebaseEmulatorRoutes

  init() throws {
    backend = try EmbeddedTestBackend.backend()
    routes = FirebaseEmulatorRoutes(
      backend: backend,
      policy: try EmulatorRequestPolicy(port: 9099, allowedOrigins: ["https://app.example.test"]))
  }

  func send(
    _ target: String, _ body: String = "", method: String = "POST", headers: [String: String]
  ) async -> (status: Int, text: String, headers: [String: String]) {
    let reply = await routes.reply(method: method, target: target, headers: headers, body: Data(body.utf8))
    return (
      reply.status, String(decoding: reply.body, as: UTF8.self),
      Dictionary(reply.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    )
  }

  // MARK: Item 2: the Host header and the links

  /// An administrator asking, with `host` as the Host header, for a password-reset link for an
  /// account that exists.
  func askForResetLink(host: String) async throws -> (status: Int, text: String, headers: [String: String]) {
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    var headers = FirebaseEmulatorAdminTests.owner
    headers["host"] = host
    return await send(
      "\(Self.project)/accounts:sendOobCode",
      #"{"requestType":"PASSWORD_RESET","email":"ada@example.com","returnOobLink":true}"#, headers: headers)
  }

  @Test(arguments: ["a b:80", "x%zz:80", "<script>:1", "h:-5", "evil.example:9099", "127.0.0.1.evil.example"])
  func aForeignOrMalformedHostIsRefusedAndNeverBecomesALink(_ host: String) async throws {
    let reply = try await askForResetLink(host: host)
    #expect(reply.status == 421)
    #expect(reply.text.contains("PERMISSION_DENIED"))
    #expect(!reply.text.contains("oobLink"))
  }

  @Test(arguments: ["127.0.0.1:9099", "localhost:9099", "[::1]:80", "LOCALHOST", "127.0.0.1"])
  func aLoopbackHostIsServedAndTheLinkIsTheServersOwnAddress(_ host: String) async throws {
    let reply = try await askForResetLink(host: host)
    #expect(reply.status == 200)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [String: Any])
    let link = try #require(json["oobLink"] as? String)
    #expect(link.hasPrefix("http://127.0.0.1:9099/emulator/action?"), "whatever Host said: \(link)")
  }

  @Test func linksStartWithThePublicURLAndItsHostIsServed() async throws {
    let routes = FirebaseEmulatorRoutes(
      backend: backend,
      policy: try EmulatorRequestPolicy(port: 9099, publicURL: URL(string: "https://auth.example.test")))
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    var headers = FirebaseEmulatorAdminTests.owner
    headers["host"] = "auth.example.test"
    let reply = await routes.reply(
      method: "POST", target: "\(Self.project)/accounts:sendOobCode", headers: headers,
      body: Data(#"{"requestType":"VERIFY_EMAIL","email":"ada@example.com","returnOobLink":true}"#.utf8))
    #expect(reply.status == 200)
    #expect(
      String(decoding: reply.body, as: UTF8.self).contains(#""oobLink":"https://auth.example.test/emulator/action?"#))
  }

  // MARK: Item 3: DNS rebinding and cross-site requests

  @Test func aRebindingPageCannotReachTheAdminAPIOrTheCodeList() async {
    var headers = FirebaseEmulatorAdminTests.owner
    headers["host"] = "rebind.attacker.example:9099"
    #expect(await send("\(Self.project)/accounts:batchGet", method: "GET", headers: headers).status == 421)
    #expect(await send("/emulator/v1/projects/signinkit-local/oobCodes", method: "GET", headers: headers).status == 421)
  }

  @Test func aCrossSitePlainTextPostDoesNothing() async throws {
    for attempt in [
      (Self.signUp, #"{"email":"victim@example.com","password":"correct horse"}"#),
      (
        "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake-api-key",
        #"{"requestType":"EMAIL_SIGNIN","email":"victim@example.com","continueUrl":"http://localhost"}"#
      ),
      (
        "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key",
        #"{"email":"victim@example.com","password":"guess"}"#
      ),
    ] {
      let reply = await send(
        attempt.0, attempt.1,
        headers: ["host": "127.0.0.1:9099", "origin": "https://attacker.example", "content-type": "text/plain"])
      #expect(reply.status == 403)
      #expect(reply.headers["Access-Control-Allow-Origin"] == nil)
    }
    #expect(await backend.emails().isEmpty)
    #expect(await backend.mailbox().isEmpty)
    // The victim's throttle was not touched: five wrong guesses later would have throttled it.
    #expect(try await backend.recentLoginFailures(for: "victim@example.com") == 0)
  }

  @Test(arguments: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
  func aJSONEndpointTakesJSONOnly(_ contentType: String) async {
    let reply = await send(
      Self.signUp, #"{"email":"ada@example.com","password":"correct horse"}"#,
      headers: ["host": "127.0.0.1:9099", "content-type": contentType])
    #expect(reply.status == 400)
    #expect(reply.text.contains("with Content-Type: application"))
    #expect(await backend.emails().isEmpty)
  }

  @Test func theSecureTokenEndpointTakesAFormAsFirebaseDoes() async throws {
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let reply = await send(
      "/securetoken.googleapis.com/v1/token?key=fake-api-key",
      "grant_type=refresh_token&refresh_token=\(session.tokens.refreshToken)",
      headers: ["host": "127.0.0.1:9099", "content-type": "application/x-www-form-urlencoded"])
    #expect(reply.status == 200)
  }

  @Test(arguments: [
    "http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]:3000", "https://app.example.test",
    "https://localhost:5173", "https://127.0.0.1",
  ])
  func anAllowedOriginGetsItsPreflightAndCORSHeaders(_ origin: String) async {
    let preflight = await send(
      Self.signUp, method: "OPTIONS",
      headers: ["host": "127.0.0.1:9099", "origin": origin, "access-control-request-method": "POST"])
    #expect(preflight.status == 204)
    #expect(preflight.headers["Access-Control-Allow-Origin"] == origin)
    #expect(preflight.headers["Access-Control-Allow-Methods"]?.contains("POST") == true)
    #expect(preflight.headers["Access-Control-Allow-Headers"]?.contains("x-client-version") == true)
    let signUp = await send(
      Self.signUp, #"{"email":"ada@example.com","password":"correct horse"}"#,
      headers: ["host": "127.0.0.1:9099", "origin": origin, "content-type": "application/json"])
    #expect(signUp.status == 200)
    #expect(signUp.headers["Access-Control-Allow-Origin"] == origin)
  }

  @Test(arguments: [
    "https://attacker.example", "null", "http://localhost.attacker.example", "https://localhost:5173/x",
  ])
  func anotherOriginIsRefusedItsPreflight(_ origin: String) async {
    let preflight = await send(Self.signUp, method: "OPTIONS", headers: ["host": "127.0.0.1:9099", "origin": origin])
    #expect(preflight.status == 403)
    #expect(preflight.headers["Access-Control-Allow-Origin"] == nil)
  }

  @Test func aRequestWithoutAnOriginGetsNoCORSHeaders() async {
    let reply = await send("/", method: "GET", headers: ["host": "127.0.0.1:9099"])
    #expect(reply.status == 200)
    #expect(reply.headers.isEmpty)
  }

  @Test func anOriginOrPublicURLThatIsNotOneIsRefusedWithTheFix() {
    #expect(throws: PolicyError.self) { try EmulatorRequestPolicy(port: 1, allowedOrigins: ["localhost:5173"]) }
    #expect(throws: PolicyError.self) { try EmulatorRequestPolicy(port: 1, allowedOrigins: ["http://x/path"]) }
    #expect(throws: PolicyError.self) { try EmulatorRequestPolicy(port: 1, publicURL: URL(string: "ftp://x")) }
  }
}
