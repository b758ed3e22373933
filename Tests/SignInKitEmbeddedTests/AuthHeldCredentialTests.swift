import Foundation
import SignInKitTesting
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Credentials the app already holds (from GoogleSignIn, or its own OpenID flow), signed in and
/// linked through `Auth` against the embedded backend, which checks them as it checks a
/// provider's: signature, audience, and the nonce.
@Suite struct AuthHeldCredentialTests {
  /// The embedded backend trusting an embedded Google and Apple, as the IdP tests set it up.
  let idps: EmbeddedIdentityProviderTests
  let auth: Auth
  var google: EmbeddedIdentityProvider { idps.google }
  var apple: EmbeddedIdentityProvider { idps.apple }

  init() throws {
    idps = try EmbeddedIdentityProviderTests()
    auth = Auth(backend: idps.backend, store: InMemorySessionStore(), clock: ManualClock())
  }

  @Test func googleTokensFromGoogleSignInSignIn() async throws {
    let credential = ProviderCredential.google(idToken: try google.idToken(email: "ada@example.com"), accessToken: "AT")
    let result = try await auth.signIn(with: credential)
    #expect(result.user.email == "ada@example.com")
    #expect(result.providerID == .google)
    #expect(result.isNewUser)
    #expect(result.user.providers.map(\.providerID) == [.google])
    // The same Google account again finds the same user.
    let again = try await auth.signIn(with: credential)
    #expect(again.user.uid == result.user.uid && !again.isNewUser)
  }

  @Test func anOpenIDTokenMustCarryTheRawNonceGivenWithIt() async throws {
    let token = try google.idToken(email: "ada@example.com", nonce: "nonce-of-this-request")
    let other = await #expect(throws: AuthError.self) {
      try await auth.signIn(with: .openID(.google, idToken: token, rawNonce: "nonce-of-another-request"))
    }
    #expect(other?.code == .invalidCredential)
    #expect(other?.serverMessage == "MISSING_OR_INVALID_NONCE")
    #expect(auth.currentUser == nil)
    let result = try await auth.signIn(with: .openID(.google, idToken: token, rawNonce: "nonce-of-this-request"))
    #expect(result.user.email == "ada@example.com")
  }

  @Test func appleTokensStillNeedTheirRawNonce() async throws {
    let raw = try AppleProvider.makeRawNonce()
    let token = try apple.idToken(email: "ada@example.com", nonce: AppleProvider.hashedNonce(raw))
    let missing = await #expect(throws: AuthError.self) {
      try await auth.signIn(with: .openID(.apple, idToken: token))
    }
    #expect(missing?.serverMessage == "MISSING_OR_INVALID_NONCE")
    let result = try await auth.signIn(with: .openID(.apple, idToken: token, rawNonce: raw))
    #expect(result.providerID == .apple)
  }

  @Test func aHeldCredentialLinksToTheAnonymousUser() async throws {
    let anonymous = try await auth.signInAnonymously()
    let linked = try await auth.link(with: .google(idToken: try google.idToken(email: "ada@example.com")))
    #expect(linked.user.uid == anonymous.user.uid)
    #expect(linked.user.providers.map(\.providerID) == [.google])
    #expect(!linked.user.isAnonymous)
  }
}
