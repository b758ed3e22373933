import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// Identity Platform tenants in `signin serve`: the v2 tenant API, each tenant's users through
/// the admin and client calls, and tokens that name their tenant.
@Suite struct FirebaseEmulatorTenantAdminTests {
  static let owner = ["authorization": "Bearer owner", "content-type": "application/json"]
  static let client = ["content-type": "application/json"]
  static let tenantsURL = "/identitytoolkit.googleapis.com/v2/projects/signinkit-local/tenants"

  static func call(
    _ routes: FirebaseEmulatorRoutes, _ method: String, _ target: String, _ body: [String: Any]? = nil,
    headers: [String: String] = owner
  ) async throws -> (status: Int, json: [String: Any]) {
    let data = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
    let reply = await routes.reply(method: method, target: target, headers: headers, body: data)
    return (reply.status, try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:])
  }

  static func message(_ json: [String: Any]) -> String? {
    (json["error"] as? [String: Any])?["message"] as? String
  }

  @Test func tenantsAreCreatedReadUpdatedListedAndDeleted() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let created = try await Self.call(
      routes, "POST", Self.tenantsURL, ["displayName": "Acme", "allowPasswordSignup": true])
    #expect(created.status == 200)
    let id = try #require(created.json["tenantId"] as? String)
    #expect(created.json["name"] as? String == "projects/signinkit-local/tenants/\(id)")
    #expect(
      created.json["allowPasswordSignup"] as? Bool == true && created.json["enableAnonymousUser"] as? Bool == false)
    #expect((created.json["mfaConfig"] as? [String: Any])?["state"] as? String == "DISABLED")

    let patched = try await Self.call(
      routes, "PATCH", "\(Self.tenantsURL)/\(id)?updateMask=displayName", ["displayName": "Acme Ltd"])
    #expect(
      patched.json["displayName"] as? String == "Acme Ltd" && patched.json["allowPasswordSignup"] as? Bool == true)
    #expect(try await Self.call(routes, "GET", "\(Self.tenantsURL)/\(id)").json["displayName"] as? String == "Acme Ltd")

    _ = try await Self.call(routes, "POST", Self.tenantsURL, ["displayName": "Beta"])
    let first = try await Self.call(routes, "GET", "\(Self.tenantsURL)?pageSize=1")
    #expect((first.json["tenants"] as? [Any])?.count == 1)
    let token = try #require(first.json["nextPageToken"] as? String)
    let second = try await Self.call(routes, "GET", "\(Self.tenantsURL)?pageSize=1&pageToken=\(token)")
    #expect((second.json["tenants"] as? [Any])?.count == 1 && second.json["nextPageToken"] == nil)

    #expect(try await Self.call(routes, "DELETE", "\(Self.tenantsURL)/\(id)").status == 200)
    let gone = try await Self.call(routes, "GET", "\(Self.tenantsURL)/\(id)")
    #expect(Self.message(gone.json)?.hasPrefix("TENANT_NOT_FOUND") == true)
    let anonymous = try await Self.call(routes, "GET", Self.tenantsURL, headers: Self.client)
    #expect(anonymous.status == 401)
  }

  @Test func aTenantsUsersAreItsOwnAndTheirTokensNameIt() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"
    let credentials: [String: Any] = [
      "email": "ada@example.com", "password": "correct horse", "returnSecureToken": true,
    ]
    // The same email in the project and in a tenant (made on first use) are two users.
    let inProject = try await Self.call(routes, "POST", signUp, credentials, headers: Self.client)
    var tenantCredentials = credentials
    tenantCredentials["tenantId"] = "tenant-a"
    let inTenant = try await Self.call(routes, "POST", signUp, tenantCredentials, headers: Self.client)
    #expect(inProject.status == 200 && inTenant.status == 200)
    #expect(inProject.json["localId"] as? String != inTenant.json["localId"] as? String)
    let tenantToken = try #require(inTenant.json["idToken"] as? String)
    #expect(try JSONWebToken(decoding: tenantToken).claims["firebase"]?.object?["tenant"]?.string == "tenant-a")
    let projectToken = try #require(inProject.json["idToken"] as? String)
    #expect(try JSONWebToken(decoding: projectToken).claims["firebase"]?.object?["tenant"] == nil)

    // A token is refused by another tenant; its refresh works without naming the tenant.
    let lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k"
    let mismatch = try await Self.call(
      routes, "POST", lookup, ["idToken": tenantToken, "tenantId": "tenant-b"], headers: Self.client)
    #expect(Self.message(mismatch.json) == "TENANT_ID_MISMATCH")
    let refreshed = try await Self.call(
      routes, "POST", "/securetoken.googleapis.com/v1/token?key=k",
      ["grant_type": "refresh_token", "refresh_token": try #require(inTenant.json["refreshToken"] as? String)],
      headers: Self.client)
    #expect(refreshed.json["user_id"] as? String == inTenant.json["localId"] as? String)

    // The admin API of the tenant sees its user only.
    let adminLookup = "/identitytoolkit.googleapis.com/v1/projects/signinkit-local/tenants/tenant-a/accounts:lookup"
    let found = try await Self.call(routes, "POST", adminLookup, ["email": ["ada@example.com"]])
    let users = (found.json["users"] as? [[String: Any]])?.compactMap { $0["localId"] as? String }
    #expect(users == [try #require(inTenant.json["localId"] as? String)])
    // Deleting the tenant deletes its users.
    #expect(try await Self.call(routes, "DELETE", "\(Self.tenantsURL)/tenant-a").status == 200)
    let afterwards = try await Self.call(routes, "POST", adminLookup, ["email": ["ada@example.com"]])
    #expect(afterwards.json["users"] == nil)
  }

  @Test func aDataFolderKeepsTenantsAndTheirUsersAcrossARestart() async throws {
    let folder = ScratchDirectory()
    var id = ""
    do {
      let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(directory: folder.url))
      let created = try await Self.call(routes, "POST", Self.tenantsURL, ["displayName": "Kept"])
      id = try #require(created.json["tenantId"] as? String)
      let made = try await Self.call(
        routes, "POST", "/identitytoolkit.googleapis.com/v1/projects/signinkit-local/tenants/\(id)/accounts",
        ["localId": "t-1", "email": "kept@example.com"])
      #expect(made.status == 200)
    }
    let reopened = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(directory: folder.url))
    #expect(try await Self.call(reopened, "GET", "\(Self.tenantsURL)/\(id)").json["displayName"] as? String == "Kept")
    let found = try await Self.call(
      reopened, "POST", "/identitytoolkit.googleapis.com/v1/projects/signinkit-local/tenants/\(id)/accounts:lookup",
      ["localId": ["t-1"]])
    #expect((found.json["users"] as? [[String: Any]])?.first?["email"] as? String == "kept@example.com")
  }

  @Test func theTenantCapIsCountedInTheDatabaseWhoeverAsks() async throws {
    let folder = ScratchDirectory()
    let first = FirebaseEmulatorRoutes(
      backend: try EmbeddedTestBackend.backend(directory: folder.url), projectLimit: 3, tenantLimit: 2)
    let second = FirebaseEmulatorRoutes(
      backend: try EmbeddedTestBackend.backend(directory: folder.url), projectLimit: 3, tenantLimit: 2)
    #expect(try await Self.call(first, "POST", Self.tenantsURL, ["displayName": "A"]).status == 200)
    #expect(try await Self.call(second, "POST", Self.tenantsURL, ["displayName": "B"]).status == 200)
    let third = try await Self.call(first, "POST", Self.tenantsURL, ["displayName": "C"])
    #expect(Self.message(third.json)?.hasPrefix("QUOTA_EXCEEDED") == true, "\(third.json)")
    let named = try await Self.call(
      second, "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
      ["email": "a@example.com", "password": "correct horse", "tenantId": "named-by-a-client"], headers: Self.client)
    #expect(Self.message(named.json)?.hasPrefix("QUOTA_EXCEEDED") == true, "\(named.json)")
  }

  @Test func aTenantsSettingsRefuseTheSignInMethodsItHasOff() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let created = try await Self.call(routes, "POST", Self.tenantsURL, ["displayName": "Strict"])
    let id = try #require(created.json["tenantId"] as? String)
    let accounts = "/identitytoolkit.googleapis.com/v1/accounts:"
    let password: [String: Any] = ["email": "ada@example.com", "password": "correct horse", "tenantId": id]
    let cases: [(String, [String: Any], String)] = [
      ("signUp", password, "OPERATION_NOT_ALLOWED"),
      ("signUp", ["tenantId": id], "ADMIN_ONLY_OPERATION"),
      ("signInWithPassword", password, "PASSWORD_LOGIN_DISABLED"),
      (
        "sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "ada@example.com", "tenantId": id],
        "OPERATION_NOT_ALLOWED"
      ),
    ]
    for (name, body, message) in cases {
      let reply = try await Self.call(routes, "POST", accounts + name + "?key=k", body, headers: Self.client)
      #expect(reply.status == 400 && Self.message(reply.json) == message, "\(name)")
    }
    _ = try await Self.call(
      routes, "PATCH", "\(Self.tenantsURL)/\(id)?updateMask=allowPasswordSignup", ["allowPasswordSignup": true])
    let allowed = try await Self.call(routes, "POST", accounts + "signUp?key=k", password, headers: Self.client)
    #expect(allowed.status == 200)
  }

  /// Review N10: a tenant that turns sign-in off (`disableAuth`) stops its users' sessions from
  /// refreshing, not only new sign-ins.
  @Test func aDisabledTenantsSessionsNoLongerRefresh() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let created = try await Self.call(
      routes, "POST", Self.tenantsURL, ["displayName": "Open", "allowPasswordSignup": true])
    let id = try #require(created.json["tenantId"] as? String)
    let signedUp = try await Self.call(
      routes, "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
      ["email": "ada@example.com", "password": "correct horse", "tenantId": id], headers: Self.client)
    let refreshToken = try #require(signedUp.json["refreshToken"] as? String)
    let refresh = "/securetoken.googleapis.com/v1/token?key=k"
    let grant: [String: Any] = ["grant_type": "refresh_token", "refresh_token": refreshToken]
    #expect(try await Self.call(routes, "POST", refresh, grant, headers: Self.client).status == 200)
    _ = try await Self.call(routes, "PATCH", "\(Self.tenantsURL)/\(id)?updateMask=disableAuth", ["disableAuth": true])
    let refused = try await Self.call(routes, "POST", refresh, grant, headers: Self.client)
    #expect(
      refused.status == 400 && Self.message(refused.json)?.hasPrefix("PROJECT_DISABLED") == true, "\(refused.json)")
  }
}
