import Foundation
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKitEmbedded

/// The accounts page through the routes (no socket): a project or tenant that does not exist is
/// said so, and viewing the page makes neither. (The browser peer drives the page itself.)
@Suite struct AccountsPageTests {
  let routes: FirebaseEmulatorRoutes

  init() throws {
    routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(EmbeddedTestBackend.fast))
  }

  func page(_ query: String) async -> (status: Int, html: String) {
    let reply = await routes.reply(
      method: "GET", target: "/emulator/auth/accounts" + query, headers: [:], body: Data())
    return (reply.status, String(decoding: reply.body, as: UTF8.self))
  }

  @Test func theServedProjectsPageListsItsAccountsLive() async {
    let (status, html) = await page("")
    #expect(status == 200)
    #expect(
      html.contains("<th>Created</th>") && html.contains("<th>Last sign-in</th>") && html.contains("<th>UID</th>"))
    #expect(html.contains("setInterval(refresh, 1000)"), "the page follows changes without a reload")
  }

  @Test func aProjectThatDoesNotExistIsSaidSoAndNotMade() async {
    for _ in 0..<2 {
      let (status, html) = await page("?project=nobody-made-this")
      #expect(status == 404)
      #expect(html.contains("There is no project nobody-made-this on this server"), "\(html)")
    }
    #expect(!routes.service.projects.holds("nobody-made-this"))
  }

  @Test func aTenantThatDoesNotExistIsSaidSoAndNotMade() async throws {
    for _ in 0..<2 {
      let (status, html) = await page("?tenant=ghost-team")
      #expect(status == 404)
      #expect(html.contains("There is no tenant ghost-team in project"), "\(html)")
    }
    #expect(try await routes.service.projects.tenants(of: routes.service.projects.served).all().isEmpty)
  }
}
