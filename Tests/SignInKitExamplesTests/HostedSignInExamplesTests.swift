import Foundation
import SignInEmbeddedTestSupport
import SignInEmulator
import SignInKit
import SignInKitEmbedded
import SignInKitExamples
import SignInKitTesting
import Synchronization
import Testing

/// The hosted-handler article's examples: GitHub through `signin serve`'s handler page over HTTP,
/// a conflict resolved by linking, and the Microsoft provider an app makes for production.
@Suite(.timeLimit(.minutes(2)))
struct HostedSignInExamplesTests {
  @Test func gitHubOfflineSignsInThroughTheServersPageAndAConflictEndsLinked() async throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    let embedded = try EmbeddedTestBackend.backend(configuration)
    let server = try FirebaseEmulatorServer(backend: embedded, port: 0)
    defer { server.stop() }
    let (backend, github) = try gitHubOffline(
      emulatorHost: server.host, projectID: embedded.configuration.projectID)
    #expect(github.configuration.site.handlerURL?.absoluteString == "http://\(server.host)/emulator/auth/handler")

    let auth = Auth(backend: backend, store: InMemorySessionStore())
    let ada = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    // A person at the page makes a GitHub account with the same email; the page opens in the
    // desktop browser, which comes back to the provider's loopback listener.
    let browser = HandlerPageBrowser(
      routes: server.routes, choice: .newAccount(email: "ada@example.com", displayName: "Ada"))
    let atThePage = OAuthProvider(
      configuration: github.configuration, surface: SignInSurface(hasSystemWebSheet: false, hasDesktopBrowser: true),
      present: { await browser.open($0) })
    let asked = LockedCount()
    let result = try await signInWithGitHub(auth, github: atThePage) { email in
      asked.add()
      return email == "ada@example.com" ? "correct horse" : nil
    }
    #expect(asked.value == 1, "the password was asked once, for the account's email")
    #expect(result.user.uid == ada.user.uid)
    #expect(Set(result.user.providers.map(\.providerID)) == [.password, .github])
    await auth.shutdown()
  }

  @Test func aGitHubSignInThroughTheHandlerPageReturnsTheProvidersTokenAndProfile() async throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    let embedded = try EmbeddedTestBackend.backend(configuration)
    let server = try FirebaseEmulatorServer(backend: embedded, port: 0)
    defer { server.stop() }
    let (backend, github) = try gitHubOffline(emulatorHost: server.host, projectID: embedded.configuration.projectID)
    let auth = Auth(backend: backend, store: InMemorySessionStore())
    let browser = HandlerPageBrowser(
      routes: server.routes, choice: .newAccount(email: "grace@example.com", displayName: "Grace"))
    let atThePage = OAuthProvider(
      configuration: github.configuration, surface: SignInSurface(hasSystemWebSheet: false, hasDesktopBrowser: true),
      present: { await browser.open($0) })
    let result = try await auth.signIn(with: atThePage)
    let credential = try #require(result.credential)
    #expect(credential.providerID == .github)
    #expect(credential.accessToken?.isEmpty == false, "the provider's access token, to call its API")
    #expect(!"\(credential)".contains(credential.accessToken ?? "-"), "never in a description")
    let info = try #require(result.additionalUserInfo)
    #expect(info.profile["email"]?.string == "grace@example.com")
    #expect(info.profile["name"]?.string == "Grace")
    #expect(!"\(result)".contains(credential.accessToken ?? "-"))
    await auth.shutdown()
  }

  @Test func theMicrosoftProviderAsksForMailAndAnswersAtTheReversedClientID() throws {
    let configuration = FirebaseConfiguration(
      apiKey: "AIza-example", projectID: "demo-app", appID: "1:123:ios:abc", bundleID: "com.example.app",
      clientID: "123-abc.apps.googleusercontent.com")
    let firebase = try FirebaseBackend(configuration: configuration, environment: [:])
    let microsoft = microsoftSignIn(for: firebase, configuration: configuration)
    #expect(microsoft.id == .microsoft)
    #expect(microsoft.configuration.scopes == ["mail.read"])
    #expect(microsoft.configuration.customParameters == ["prompt": "consent", "tenant": "organizations"])
    #expect(microsoft.configuration.site.callbackScheme == "com.googleusercontent.apps.123-abc")
    #expect(microsoft.configuration.site.handlerURL == nil, "the auth domain is asked of the project at sign-in")
  }
}

/// A count the `askPassword` closure keeps.
final class LockedCount: Sendable {
  private let count = Mutex(0)
  func add() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
