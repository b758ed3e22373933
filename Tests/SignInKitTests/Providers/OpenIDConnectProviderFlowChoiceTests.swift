import Foundation
import SignInConcurrency
import Testing

@testable import SignInKit

/// The default flow, platform by configuration: the pure choice, and `credential()` failing at
/// once where no flow can work.
@Suite struct OpenIDConnectProviderFlowChoiceTests {
  typealias Flow = OpenIDConnectProvider.Flow
  typealias Chosen = OpenIDConnectProvider.ChosenFlow

  static let iOS = SignInSurface(hasSystemWebSheet: true, hasDesktopBrowser: false)
  static let macOS = SignInSurface(hasSystemWebSheet: true, hasDesktopBrowser: true)
  static let linux = SignInSurface(hasSystemWebSheet: false, hasDesktopBrowser: true)
  static let tvOS = SignInSurface(hasSystemWebSheet: false, hasDesktopBrowser: false)
  static let redirect = URL(string: "com.googleusercontent.apps.123-abc:/oauthredirect")!

  /// What the choice comes to: a flow, or the words its error must contain.
  enum Outcome: Equatable, CustomStringConvertible {
    case flow(Chosen)
    case error(naming: String)
    var description: String {
      switch self {
      case .flow(let flow): "\(flow)"
      case .error(let words): "error naming \(words)"
      }
    }
  }

  /// One row: the platform, the configuration (flow, redirect URI, a sheet passed by the app
  /// where the platform has none, a presenter of the app's own), and the outcome.
  struct Row: Sendable, CustomStringConvertible {
    let surface: SignInSurface
    let flow: Flow
    let redirect: URL?
    var appSheet = false
    var presentsItself = false
    let outcome: Outcome
    var description: String { "\(surface), \(flow), redirect \(redirect != nil) → \(outcome)" }
  }

  static let table: [Row] = [
    // iOS, visionOS: the sheet, which needs the redirect URI.
    Row(surface: iOS, flow: .automatic, redirect: redirect, outcome: .flow(.appRedirect(redirect))),
    Row(surface: iOS, flow: .automatic, redirect: nil, outcome: .error(naming: "appRedirectURI")),
    Row(surface: iOS, flow: .browser, redirect: redirect, outcome: .error(naming: ".automatic")),
    Row(surface: iOS, flow: .browser, redirect: nil, presentsItself: true, outcome: .flow(.browser)),
    Row(surface: iOS, flow: .appRedirect(redirect), redirect: nil, outcome: .flow(.appRedirect(redirect))),
    Row(surface: iOS, flow: .device, redirect: nil, outcome: .flow(.device)),
    // macOS: the sheet with a redirect URI, else the desktop browser.
    Row(surface: macOS, flow: .automatic, redirect: redirect, outcome: .flow(.appRedirect(redirect))),
    Row(surface: macOS, flow: .automatic, redirect: nil, outcome: .flow(.browser)),
    Row(surface: macOS, flow: .browser, redirect: redirect, outcome: .flow(.browser)),
    // Linux: the desktop browser, whatever the redirect URI.
    Row(surface: linux, flow: .automatic, redirect: redirect, outcome: .flow(.browser)),
    Row(surface: linux, flow: .automatic, redirect: nil, outcome: .flow(.browser)),
    Row(surface: linux, flow: .appRedirect(redirect), redirect: nil, outcome: .error(naming: "webSession:")),
    Row(
      surface: linux, flow: .appRedirect(redirect), redirect: nil, appSheet: true,
      outcome: .flow(.appRedirect(redirect))),
    Row(surface: linux, flow: .device, redirect: nil, outcome: .flow(.device)),
    // tvOS, watchOS: nothing to show a web page with.
    Row(surface: tvOS, flow: .automatic, redirect: redirect, outcome: .error(naming: ".device")),
    Row(surface: tvOS, flow: .browser, redirect: nil, outcome: .error(naming: ".device")),
    Row(surface: tvOS, flow: .appRedirect(redirect), redirect: nil, outcome: .error(naming: "webSession:")),
    Row(surface: tvOS, flow: .device, redirect: nil, outcome: .flow(.device)),
  ]

  @Test(arguments: table)
  func theFlowFollowsThePlatformAndTheConfiguration(_ row: Row) {
    let outcome: Outcome
    do {
      outcome = .flow(
        try OpenIDConnectProvider.chooseFlow(
          row.flow, appRedirectURI: row.redirect, surface: row.surface,
          hasWebSession: row.surface.hasSystemWebSheet || row.appSheet, presentsItself: row.presentsItself))
    } catch let error as AuthError {
      #expect(error.code == .misconfigured)
      outcome = error.message.contains(Self.words(of: row.outcome)) ? row.outcome : .error(naming: error.message)
    } catch {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(outcome == row.outcome)
  }

  static func words(of outcome: Outcome) -> String {
    if case .error(let words) = outcome { return words }
    return "\u{0}"
  }

  @Test func thisPlatformIsLinuxOrHasTheSheet() {
    #if os(Linux)
      #expect(SignInSurface.current == Self.linux)
    #else
      #expect(SignInSurface.current.hasSystemWebSheet)
    #endif
  }

  // MARK: - The presets

  @Test func googleRedirectsToTheReversedClientID() {
    let google = OpenIDConnectProvider.Configuration.google(clientID: "123-abc.apps.googleusercontent.com")
    #expect(google.flow == .automatic)
    #expect(google.appRedirectURI == Self.redirect)
  }

  @Test func googleFromGoogleServiceInfoUsesItsClientID() throws {
    let firebase = FirebaseConfiguration(
      apiKey: "AIza", projectID: "demo-app", clientID: "123-abc.apps.googleusercontent.com")
    let google = try OpenIDConnectProvider.Configuration.google(firebase: firebase)
    #expect(google.clientID == "123-abc.apps.googleusercontent.com")
    #expect(google.appRedirectURI == Self.redirect)
    let without = FirebaseConfiguration(apiKey: "AIza", projectID: "demo-app")
    let error = #expect(throws: AuthError.self) { try OpenIDConnectProvider.Configuration.google(firebase: without) }
    #expect(error?.code == .misconfigured)
    #expect(error?.message.contains("CLIENT_ID") == true)
  }

  // MARK: - credential() on a platform where nothing can work

  /// A transport that records whether anything was asked: a flow that cannot work must fail
  /// before discovery.
  final class UntouchedTransport: HTTPTransport {
    let requests = Locked(0)
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      requests.withLock { $0 += 1 }
      throw AuthError(.network, "offline")
    }
  }

  @Test(arguments: [
    (iOS, Flow.browser), (iOS, .automatic), (tvOS, .automatic), (linux, .appRedirect(redirect)),
  ])
  func aFlowThatCannotWorkFailsAtOnceWithoutAskingAnyone(_ surface: SignInSurface, _ flow: Flow) async {
    let transport = UntouchedTransport()
    let provider = OpenIDConnectProvider(
      configuration: .init(issuer: "https://accounts.google.com", clientID: "c", providerID: .google, flow: flow),
      transport: transport, surface: surface)
    let error = await #expect(throws: AuthError.self) { _ = try await provider.credential() }
    #expect(error?.code == .misconfigured)
    #expect(transport.requests.withLock { $0 } == 0)
  }
}
