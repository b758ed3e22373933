import Foundation
import SignInConcurrency
import SignInEmulator
import SignInKit

/// `oauth PROVIDER [--account EMAIL]`: Sign in through the project's hosted handler with Microsoft, GitHub, Yahoo, X, Facebook, Apple on the web, oidc.NAME or saml.NAME (against signin serve, with --backend emulator).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct OAuthCommand: REPLCommand {
  package static let name = "oauth"
  package static let usage = "oauth PROVIDER [--account EMAIL]"
  package static let summary =
    "Sign in through the hosted handler with microsoft.com, github.com, yahoo.com, twitter.com, facebook.com, "
    + "apple.com, oidc.NAME or saml.NAME (with --backend emulator against signin serve; --account picks or makes "
    + "that fake account instead of opening the browser)."

  package var providerID: String
  /// The fake account to pick or make on the handler page, instead of opening the browser.
  package var account: String? = nil

  /// The providers the handler signs in with, for Tab.
  static let providers = [
    "microsoft.com", "github.com", "yahoo.com", "twitter.com", "facebook.com", "apple.com", "oidc.", "saml.",
  ]
}

extension OAuthCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard let first = arguments.first, first.contains("."), !first.hasPrefix("-") else { throw Self.usageError }
    providerID = first.lowercased()
    switch arguments.count {
    case 1: break
    case 3:
      guard arguments[1] == "--account", arguments[2].contains("@") else { throw Self.usageError }
      account = arguments[2]
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    switch arguments.count {
    case 0: providers
    case 1: ["--account"]
    case 2 where arguments[1] == "--account": knownEmails
    default: []
    }
  }

  package func run(in session: isolated REPLSession) async throws {
    guard case .firebase(let firebase) = session.backend, firebase.emulatorHost != nil else {
      throw AuthError(
        .operationNotAllowed,
        "oauth signs in through a hosted handler page, and only signin serve's hands its answer to a terminal: "
          + "run 'signin serve' in another terminal, then start this REPL with '--backend emulator'. Against "
          + "Firebase, sign in with 'google --issuer URL --client-id ID' at the provider's own OpenID issuer.")
    }
    let refusals = Refusals()
    let present: @Sendable (OpenIDConnectProvider.Prompt) async -> Void
    if let email = account {
      present = { prompt in await Self.choose(email, at: prompt, refusals: refusals) }
    } else {
      present = session.presenter
    }
    let provider = OAuthProvider(
      ProviderID(rawValue: providerID), backend: firebase, flow: .browser, present: present)
    let auth = session.auth
    let result = try await withThrowingTaskGroup(of: SignInResult?.self) { group in
      group.addTask { try await auth.signIn(with: provider) }
      group.addTask {
        // The page refused the account: the sign-in waits for nothing more.
        try await refusals.first()
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let result = first else {
        throw AuthError(.cancelled, "The sign-in did not finish.")
      }
      return result
    }
    await session.say(TranscriptFormatter.signedIn(result))
  }

  /// Submits the handler page's form for `email`, as a person would: the page's answer goes on
  /// to the provider's loopback listener.
  static func choose(_ email: String, at prompt: OpenIDConnectProvider.Prompt, refusals: Refusals) async {
    guard case .openBrowser(let page) = prompt,
      var components = URLComponents(url: page, resolvingAgainstBaseURL: false)
    else { return }
    components.path += "/choose"
    components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "email", value: email)]
    guard let url = components.url else { return }
    do {
      let reply = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: url))
      if reply.status != 200 {
        refusals.refuse(AuthError(.invalidCredential, "The handler page refused: \(Self.message(in: reply.body))"))
      }
    } catch {
      refusals.refuse(AuthError.wrapping(error))
    }
  }

  /// The message of the handler page's refusal (its `id="error"` paragraph), as text.
  static func message(in page: Data) -> String {
    let html = String(decoding: page, as: UTF8.self)
    guard let start = html.range(of: "id=\"error\">"),
      let end = html.range(of: "</p>", range: start.upperBound..<html.endIndex)
    else { return "no reason given" }
    return EmulatorPageHTML.unescape(String(html[start.upperBound..<end.lowerBound]))
  }

  /// The first refusal of the page, for the sign-in to end with instead of waiting.
  ///
  /// - Concurrency: `Sendable`; a ``CallbackContinuation`` keeps the first.
  final class Refusals: Sendable {
    private let refusal = CallbackContinuation<Void> { AuthError(.cancelled, "The sign-in did not finish.") }

    init() {}
    func refuse(_ error: AuthError) { refusal.resume(with: .failure(error)) }
    /// Waits for the first refusal and throws it; cancelling the wait throws `cancelled`.
    func first() async throws -> SignInResult? {
      try await refusal.value(start: {}, onCancel: {})
      return nil
    }
  }
}
