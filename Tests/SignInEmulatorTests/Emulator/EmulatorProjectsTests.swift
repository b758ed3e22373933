import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInWire
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// Several projects in one `signin serve`: each project an admin or emulator call names is made
/// on first use, with accounts of its own, as the Firebase emulator makes them.
@Suite struct EmulatorProjectsTests {
  static let owner = ["authorization": "Bearer owner", "content-type": "application/json"]

  static func admin(_ project: String, _ call: String) -> String {
    "/identitytoolkit.googleapis.com/v1/projects/\(project)\(call)"
  }

  static func call(
    _ routes: FirebaseEmulatorRoutes, _ method: String, _ target: String, _ body: [String: Any]? = nil
  ) async throws -> (status: Int, json: [String: Any]) {
    let data = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
    let reply = await routes.reply(method: method, target: target, headers: owner, body: data)
    return (reply.status, try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:])
  }

  static func users(_ reply: (status: Int, json: [String: Any])) -> [String] {
    (reply.json["users"] as? [[String: Any]])?.compactMap { $0["localId"] as? String } ?? []
  }

  static func message(_ json: [String: Any]) -> String? {
    (json["error"] as? [String: Any])?["message"] as? String
  }

  @Test func anotherProjectIsMadeOnFirstUseWithAccountsOfItsOwn() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let other = try await Self.call(
      routes, "POST", Self.admin("demo-other", "/accounts"), ["localId": "o-1", "email": "ada@example.com"])
    #expect(other.status == 200)
    // The same email is free in the served project, and each lookup sees its own project only.
    let served = try await Self.call(
      routes, "POST", Self.admin("signinkit-local", "/accounts"), ["localId": "s-1", "email": "ada@example.com"])
    #expect(served.status == 200)
    let lookup = ["email": ["ada@example.com"]]
    #expect(
      Self.users(try await Self.call(routes, "POST", Self.admin("demo-other", "/accounts:lookup"), lookup)) == ["o-1"])
    #expect(
      Self.users(try await Self.call(routes, "POST", Self.admin("signinkit-local", "/accounts:lookup"), lookup))
        == ["s-1"])

    // Its outbox and its reset are its own too.
    let link = try await Self.call(
      routes, "POST", Self.admin("demo-other", "/accounts:sendOobCode"),
      ["requestType": "PASSWORD_RESET", "email": "ada@example.com", "returnOobLink": true])
    #expect(link.status == 200)
    let otherCodes = try await Self.call(routes, "GET", "/emulator/v1/projects/demo-other/oobCodes")
    #expect((otherCodes.json["oobCodes"] as? [Any])?.count == 1)
    let servedCodes = try await Self.call(routes, "GET", "/emulator/v1/projects/signinkit-local/oobCodes")
    #expect((servedCodes.json["oobCodes"] as? [Any])?.isEmpty == true)
    #expect(try await Self.call(routes, "DELETE", "/emulator/v1/projects/demo-other/accounts").status == 200)
    #expect(Self.users(try await Self.call(routes, "POST", Self.admin("demo-other", "/accounts:lookup"), lookup)) == [])
    #expect(
      Self.users(try await Self.call(routes, "POST", Self.admin("signinkit-local", "/accounts:lookup"), lookup))
        == ["s-1"])
  }

  @Test func anotherProjectsTokensNameItAndShareTheServedKey() async throws {
    let served = try EmbeddedTestBackend.backend()
    let projects = ServiceProjects(served: served)
    let other = try projects.backend(for: "demo-other")
    let session = try await other.signUp(SignUpRequest())
    let token = try JSONWebToken(decoding: session.tokens.idToken)
    #expect(token.claims["aud"]?.string == "demo-other")
    #expect(token.claims["iss"]?.string == "https://securetoken.google.com/demo-other")
    #expect(token.header["kid"]?.string == served.keyID)
    // The served project does not take another project's token.
    await #expect(throws: AuthError.self) {
      try await served.lookup(LookupRequest(idToken: session.tokens.idToken))
    }
    #expect(try projects.backend(for: "demo-other") === other)
  }

  @Test func anIdThatIsNotAProjectIdIsRefused() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    for id in ["..", "Demo", "-lead", "a%2Fb", String(repeating: "a", count: 64)] {
      let reply = try await Self.call(routes, "GET", "/emulator/v1/projects/\(id)/config")
      #expect(reply.status == 400)
      #expect(Self.message(reply.json)?.hasPrefix("INVALID_PROJECT_ID") == true, "\(id)")
    }
  }

  @Test func projectsBeyondTheLimitAreRefusedAndTheOthersKept() async throws {
    let projects = ServiceProjects(served: try EmbeddedTestBackend.backend())
    for index in 0..<ServiceProjects.limit {
      _ = try projects.backend(for: "p-\(index)")
    }
    let refusal = #expect(throws: FirebaseFailure.self) { try projects.backend(for: "one-more") }
    #expect(refusal?.code == .quotaExceeded)
    _ = try projects.backend(for: "p-0")
  }

  @Test func aDataFolderKeepsAnotherProjectAcrossARestart() async throws {
    let folder = ScratchDirectory()
    let body: [String: Any] = ["localId": "o-1", "email": "ada@example.com", "password": "correct horse"]
    do {
      let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(directory: folder.url))
      #expect(try await Self.call(routes, "POST", Self.admin("demo-other", "/accounts"), body).status == 200)
    }
    // Review V: its rows are in the served project's database; it opened no file of its own.
    #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("projects").path))
    let reopened = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(directory: folder.url))
    let found = try await Self.call(
      reopened, "POST", Self.admin("demo-other", "/accounts:lookup"), ["localId": ["o-1"]])
    #expect(Self.users(found) == ["o-1"])
    let served = try await Self.call(
      reopened, "POST", Self.admin("signinkit-local", "/accounts:lookup"), ["localId": ["o-1"]])
    #expect(Self.users(served) == [])
  }

}

/// Review N5 and N1: a web page's `GET` (an `<img>` reaches loopback with no `Origin`) makes no
/// project and no tenant, and no path makes more tenants than the cap.
@Suite struct EmulatorProjectsLimitTests {
  typealias Call = EmulatorProjectsTests

  static func get(_ routes: FirebaseEmulatorRoutes, _ target: String) async -> Int {
    await routes.reply(method: "GET", target: target, headers: [:], body: Data()).status
  }

  /// Caps of 3 here: the rule is the same at 100, and each project or tenant holds a database.
  static func routes() throws -> FirebaseEmulatorRoutes {
    FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(), projectLimit: 3, tenantLimit: 3)
  }

  @Test func aGETMakesNoProjectAndNoTenant() async throws {
    let routes = try Self.routes()
    for index in 0..<5 {
      #expect(await Self.get(routes, "/emulator/v1/projects/page-\(index)/config") == 200)
      #expect(await Self.get(routes, "/emulator/v1/projects/signinkit-local/tenants/page-\(index)/config") == 200)
      #expect(await Self.get(routes, "/emulator/v1/projects/page-\(index)/tenants/t/oobCodes") == 200)
    }
    let tenants = try await Call.call(
      routes, "GET", "/identitytoolkit.googleapis.com/v2/projects/signinkit-local/tenants")
    #expect((tenants.json["tenants"] as? [Any] ?? []).isEmpty, "\(tenants.json)")
    // The project cap is whole: every one of the other projects can still be made.
    for index in 0..<3 {
      let made = try await Call.call(routes, "POST", Call.admin("made-\(index)", "/accounts"), ["localId": "u"])
      #expect(made.status == 200)
    }
    let over = try await Call.call(routes, "POST", Call.admin("one-too-many", "/accounts"), ["localId": "u"])
    #expect(Call.message(over.json)?.hasPrefix("QUOTA_EXCEEDED") == true)
  }

  @Test func clientsNamingTenantsMakeNoMoreThanTheCap() async throws {
    let routes = try Self.routes()
    let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any"
    for index in 0..<3 {
      let reply = try await Call.call(routes, "POST", signUp, ["tenantId": "t-\(index)"])
      #expect(reply.status == 200)
    }
    let over = try await Call.call(routes, "POST", signUp, ["tenantId": "t-over"])
    #expect(Call.message(over.json)?.hasPrefix("QUOTA_EXCEEDED") == true, "\(over.json)")
    // A tenant it has still works.
    #expect(try await Call.call(routes, "POST", signUp, ["tenantId": "t-0"]).status == 200)
  }
}
