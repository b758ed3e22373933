import Foundation
import SignInConcurrency
import SignInKit
import SignInKitEmbedded
import SignInKitExamples
import SignInKitTesting
import Testing

/// Going to production's examples: reCAPTCHA Enterprise tokens on a protected project, and a
/// tenant picked at run time.
@Suite struct ProductionSafeguardsExamplesTests {
  @Test func theEnterpriseTokensGoOnACallTheProjectProtects() async throws {
    let asked = Locked<[String]>([])
    let tokens = EnterpriseTokens { action, siteKey in
      asked.withLock { $0.append(action) }
      return TestRecaptchaTokenProvider.token(siteKey: siteKey, action: action)
    }
    let backend = try EmbeddedBackend(directory: nil)
    try await backend.enforceRecaptcha(emailPassword: .enforce, phone: .off)
    let configuration = FirebaseConfiguration(apiKey: "AIza-test", projectID: backend.configuration.projectID)
    var client = try protectedBackend(configuration, tokens: tokens)
    // Production's calls, answered in this process by the embedded backend's service.
    client.inProcess = InProcessTransport(service: IdentityToolkitService(serving: backend))
    let auth = Auth(backend: client, store: InMemorySessionStore())
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    #expect(asked.withLock { $0 } == ["signUpPassword"])
  }

  @Test func choosingAnOrganisationBringsBackWhoSignedInThere() async throws {
    let auth = Auth(backend: ScriptedBackend(), store: InMemorySessionStore())
    _ = try await chooseOrganisation(auth, tenantID: "acme-x1y2")
    let ada = try await auth.signUp(email: "ada@example.com", password: "correct horse").user
    try await auth.switchTenant(to: nil)
    #expect(try await chooseOrganisation(auth, tenantID: "acme-x1y2")?.uid == ada.uid)
  }
}
