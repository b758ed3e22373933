import Foundation
import SignInConcurrency
import SignInKitTesting
import Testing

@testable import SignInKit

/// `login_hint`, `hd`, `prompt` and other parameters on the authorization request, and the
/// reserved ones refused.
@Suite(.timeLimit(.minutes(3)))
struct AuthorizationParametersTests {
  typealias Issuer = OpenIDConnectProviderTests.LoopbackIssuer
  typealias Sheet = OpenIDConnectProviderTests.FakeWebSession

  func provider(_ issuer: Issuer, _ sheet: Sheet, _ parameters: AuthorizationParameters) -> OpenIDConnectProvider {
    var configuration = OpenIDConnectProvider.Configuration(
      issuer: issuer.issuer.issuer, clientID: issuer.issuer.clientID, providerID: .google,
      flow: .appRedirect(OpenIDConnectProviderTests.appRedirect), timeout: .seconds(30))
    configuration.authorizationParameters = parameters
    return OpenIDConnectProvider(configuration: configuration, webSession: sheet)
  }

  @Test func theAuthorizationRequestCarriesTheAppsParameters() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let sheet = Sheet(answer: .approve, sentNonce: issuer.sentNonce)
    let parameters = AuthorizationParameters(
      loginHint: "ada@example.com", hostedDomain: "example.com", prompt: [.consent, .selectAccount],
      additional: ["include_granted_scopes": "true", "access_type": "offline"])
    _ = try await provider(issuer, sheet, parameters).credential()
    let url = try #require(sheet.shown.withLock { $0?.url })
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    func values(_ name: String) -> [String] { items.filter { $0.name == name }.compactMap(\.value) }
    #expect(values("login_hint") == ["ada@example.com"])
    #expect(values("hd") == ["example.com"])
    #expect(values("prompt") == ["consent select_account"])
    #expect(values("access_type") == ["offline"])
    #expect(values("include_granted_scopes") == ["true"])
    // The request's own parameters are there once each, and come first.
    for name in ["state", "nonce", "code_challenge", "redirect_uri", "scope"] { #expect(values(name).count == 1) }
    #expect(items.first?.name == "response_type")
  }

  @Test(arguments: ["state", "nonce", "redirect_uri", "code_challenge", "Scope", "client_id", "login_hint", "prompt"])
  func aParameterSignInKitSetsIsRefusedBeforeAnythingIsShown(_ name: String) async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let sheet = Sheet(answer: .approve, sentNonce: issuer.sentNonce)
    let error = await #expect(throws: AuthError.self) {
      try await provider(issuer, sheet, AuthorizationParameters(additional: [name: "x"])).credential()
    }
    #expect(error?.code == .misconfigured)
    #expect(error?.message.contains(name) == true)
    #expect(sheet.shown.withLock { $0 } == nil)
    #expect(issuer.server.requests.isEmpty, "not even discovery ran")
  }

  @Test func noParametersAddNothing() throws {
    #expect(try AuthorizationParameters().fields().isEmpty)
  }
}
