import Foundation
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// The OIDC and SAML provider configurations of the v2 admin API, for a project and a tenant.
@Suite struct FirebaseEmulatorProviderConfigAdminTests {
  static let project = "/identitytoolkit.googleapis.com/v2/projects/signinkit-local"
  typealias Call = FirebaseEmulatorTenantAdminTests

  @Test func anOIDCConfigurationIsCreatedReadUpdatedListedAndDeleted() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let url = Self.project + "/oauthIdpConfigs"
    let created = try await Call.call(
      routes, "POST", url + "?oauthIdpConfigId=oidc.acme",
      ["clientId": "acme-client", "issuer": "https://id.acme.test", "displayName": "Acme", "enabled": true])
    #expect(created.status == 200)
    #expect(created.json["name"] as? String == "projects/signinkit-local/oauthIdpConfigs/oidc.acme")
    let duplicate = try await Call.call(routes, "POST", url + "?oauthIdpConfigId=oidc.acme", ["clientId": "x"])
    #expect(Call.message(duplicate.json)?.hasPrefix("DUPLICATE_IDP_CONFIG") == true)
    let unnamed = try await Call.call(routes, "POST", url + "?oauthIdpConfigId=acme", ["clientId": "x"])
    #expect(Call.message(unnamed.json)?.hasPrefix("INVALID_PROVIDER_ID") == true)

    let patched = try await Call.call(
      routes, "PATCH", url + "/oidc.acme?updateMask=displayName,enabled", ["displayName": "Acme SSO"])
    #expect(patched.json["displayName"] as? String == "Acme SSO" && patched.json["enabled"] == nil)
    #expect(patched.json["issuer"] as? String == "https://id.acme.test")
    #expect(try await Call.call(routes, "GET", url + "/oidc.acme").json["clientId"] as? String == "acme-client")
    let listed = try await Call.call(routes, "GET", url)
    #expect((listed.json["oauthIdpConfigs"] as? [[String: Any]])?.count == 1)

    #expect(try await Call.call(routes, "DELETE", url + "/oidc.acme").status == 200)
    let gone = try await Call.call(routes, "GET", url + "/oidc.acme")
    #expect(gone.status == 404 && Call.message(gone.json)?.hasPrefix("CONFIGURATION_NOT_FOUND") == true)
  }

  /// Review N11: a 3,000-level mask once crashed the server, and from depth 1,000 blocked later
  /// changes. Every such mask is refused with `INVALID_ARGUMENT`, and the next change works.
  @Test(arguments: [9, 1_000, 3_000])
  func aMaskDeeperThanAnyResourceIsRefusedAndChangesGoOn(_ depth: Int) async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let url = Self.project + "/oauthIdpConfigs"
    _ = try await Call.call(
      routes, "POST", url + "?oauthIdpConfigId=oidc.acme",
      ["clientId": "acme-client", "issuer": "https://id.acme.test"])
    let mask = (["displayName"] + Array(repeating: "x", count: depth - 1)).joined(separator: ".")
    let refused = try await Call.call(routes, "PATCH", url + "/oidc.acme?updateMask=\(mask)", ["displayName": "Deep"])
    #expect(refused.status == 400)
    #expect(Call.message(refused.json)?.hasPrefix("INVALID_ARGUMENT") == true, "\(refused.json)")
    let next = try await Call.call(routes, "PATCH", url + "/oidc.acme?updateMask=displayName", ["displayName": "Acme"])
    #expect(next.status == 200 && next.json["displayName"] as? String == "Acme")
  }

  @Test func aSAMLConfigurationOfATenantIsItsOwnAndNestedFieldsUpdate() async throws {
    let routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
    let tenantURL = Self.project + "/tenants/tenant-a/inboundSamlConfigs"
    let body: [String: Any] = [
      "idpConfig": [
        "idpEntityId": "idp", "ssoUrl": "https://idp.test/sso", "idpCertificates": [["x509Certificate": "C"]],
      ],
      "spConfig": ["spEntityId": "sp", "callbackUri": "https://app.test/__/auth/handler"],
    ]
    let created = try await Call.call(routes, "POST", tenantURL + "?inboundSamlConfigId=saml.acme", body)
    #expect(created.json["name"] as? String == "projects/signinkit-local/tenants/tenant-a/inboundSamlConfigs/saml.acme")
    let patched = try await Call.call(
      routes, "PATCH", tenantURL + "/saml.acme?updateMask=idpConfig.ssoUrl",
      ["idpConfig": ["ssoUrl": "https://idp.test/sso2"]])
    let idp = patched.json["idpConfig"] as? [String: Any]
    #expect(idp?["ssoUrl"] as? String == "https://idp.test/sso2" && idp?["idpEntityId"] as? String == "idp")
    // The project has no such configuration: the tenant's are its own.
    let inProject = try await Call.call(routes, "GET", Self.project + "/inboundSamlConfigs/saml.acme")
    #expect(inProject.status == 404)
  }
}
