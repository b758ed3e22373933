import Foundation
import Testing

@testable import SignInWire

struct FieldMaskTests {
  @Test func anUpdateChangesTheMaskedFieldsOnlyAndClearsOnesTheChangeLeavesOut() throws {
    var tenant = Tenant()
    tenant.displayName = "Old"
    tenant.allowPasswordSignup = true
    tenant.mfaConfig = .init(state: "ENABLED", enabledProviders: ["PHONE_SMS"])
    var change = Tenant()
    change.displayName = "New"
    change.mfaConfig = .init(state: "DISABLED")
    let updated = try tenant.updated(
      with: change, mask: try FieldMask("displayName, mfaConfig.state,allowPasswordSignup", of: Tenant.self))
    #expect(updated.displayName == "New")
    #expect(updated.mfaConfig?.state == "DISABLED")
    #expect(updated.mfaConfig?.enabledProviders == ["PHONE_SMS"], "a field beside the masked one is kept")
    #expect(updated.allowPasswordSignup == nil, "a masked field the change leaves out is cleared")
  }

  @Test func withoutAMaskEveryFieldTheChangeSetsIsTakenAndTheNameNever() throws {
    var config = OAuthIdpConfig()
    config.name = "projects/p/oauthIdpConfigs/oidc.a"
    config.clientId = "c1"
    config.issuer = "https://old.example"
    var change = OAuthIdpConfig()
    change.name = "projects/p/oauthIdpConfigs/oidc.evil"
    change.issuer = "https://new.example"
    let updated = try config.updated(with: change, mask: nil)
    #expect(updated.name == config.name)
    #expect(updated.clientId == "c1")
    #expect(updated.issuer == "https://new.example")
  }

  @Test(arguments: [
    ("", "not a field"), ("notAField", "not a field"), ("displayName,,", "not a field"),
    (String(repeating: "mfaConfig.", count: 8) + "state", "deep"),
    (Array(repeating: "displayName", count: 101).joined(separator: ","), "more than"),
  ])
  func aMaskThatNamesNoFieldOrIsTooDeepOrTooLongIsRefused(_ text: String, _ reason: String) {
    let error = #expect(throws: FirebaseFailure.self) { try FieldMask(text, of: Tenant.self) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.detail?.contains(reason) == true, "\(error?.detail ?? "")")
  }
}
