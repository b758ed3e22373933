import Foundation
import SignInConcurrency
import SignInEmulator
import SignInKit
import SignInKitEmbedded
import SignInWire

/// A person at the emulator's hosted handler page, as a browser sheet shows it: it opens the
/// page, submits one of its forms (a new account's, or an account it lists), and returns where
/// the page redirected. The page is served by the same routes `signin serve` runs, in process;
/// for the browser flow it then follows the redirect to the app's loopback listener over HTTP.
package struct HandlerPageBrowser: WebAuthenticationSession {
  /// Which account to pick.
  package enum Choice: Sendable {
    case newAccount(email: String, displayName: String)
    /// An account the page lists, by its id at the provider.
    case listed(rawID: String)
    /// The first account the page lists.
    case firstListed
  }

  package let routes: FirebaseEmulatorRoutes
  package let choice: Choice
  /// The pages seen, for tests that read them.
  package let seen = Locked<[String]>([])

  package init(routes: FirebaseEmulatorRoutes, choice: Choice) {
    self.routes = routes
    self.choice = choice
  }

  package func authenticate(at url: URL, callbackScheme: String) async throws -> URL {
    let location = try await pick(at: url)
    guard let callback = URL(string: location), callback.scheme == callbackScheme else {
      throw AuthError(.invalidResponse, "the page redirected to \(location), not to \(callbackScheme)")
    }
    return callback
  }

  /// The browser flow: the page's redirect, followed to the loopback listener.
  package func open(_ prompt: OpenIDConnectProvider.Prompt) async {
    guard case .openBrowser(let url) = prompt, let location = try? await pick(at: url),
      let target = URL(string: location)
    else { return }
    _ = try? await URLSessionTransport().send(HTTPRequest(method: "GET", url: target))
  }

  /// Opens the page at `url`, submits the chosen form, and returns the `Location` it answered.
  package func pick(at url: URL) async throws -> String {
    let page = try await get(target(of: url))
    guard page.status == 200 else { throw AuthError(.invalidResponse, "the handler page answered \(page.status)") }
    let html = String(decoding: page.body, as: UTF8.self)
    seen.withLock { $0.append(html) }
    var fields: [(String, String)]
    let form: Substring
    switch choice {
    case .newAccount(let email, let displayName):
      form = try Self.form(in: html, containing: "id=\"new-account\"")
      fields = Self.hiddenFields(in: form) + [("email", email), ("displayName", displayName)]
    case .listed(let rawID):
      form = try Self.form(in: html, containing: "name=\"rawId\"")
      fields = Self.hiddenFields(in: form) + [("rawId", rawID)]
    case .firstListed:
      form = try Self.form(in: html, containing: "name=\"rawId\"")
      let first = try #/name="rawId" value="([^"]*)"/#.firstMatch(in: form).map {
        EmulatorPageHTML.unescape(String($0.1))
      }
      fields = Self.hiddenFields(in: form) + [("rawId", first ?? "")]
    }
    let action = try #/<form method="get" action="([^"]+)"/#.firstMatch(in: form).map { String($0.1) } ?? ""
    let chosen = try await get(action + "?" + FormEncoding.encode(fields))
    guard chosen.status == 303, let location = chosen.headers.first(where: { $0.name == "Location" })?.value else {
      throw AuthError(
        .invalidResponse, "the page answered \(chosen.status): \(String(decoding: chosen.body, as: UTF8.self))")
    }
    return location
  }

  private func get(_ target: String) async throws -> FirebaseEmulatorRoutes.Reply {
    await routes.reply(method: "GET", target: target, headers: ["host": "127.0.0.1:9099"], body: Data())
  }

  private func target(of url: URL) -> String {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    return (components?.percentEncodedPath ?? "") + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
  }

  private static func form(in html: String, containing marker: String) throws -> Substring {
    for piece in html.split(separator: "<form").dropFirst() where piece.contains(marker) {
      return "<form" + (piece.split(separator: "</form>").first ?? piece)
    }
    throw AuthError(.invalidResponse, "the handler page has no form with \(marker)")
  }

  private static func hiddenFields(in form: Substring) -> [(String, String)] {
    form.matches(of: #/<input type="hidden" name="([^"]+)" value="([^"]*)">/#).map {
      (String($0.1), EmulatorPageHTML.unescape(String($0.2)))
    }
  }
}
