import Foundation
import SignInConcurrency
import SignInKit
import SignInKitEmbedded
import SignInKitTesting
import Testing

/// Sign in with Apple against the embedded backend and its embedded Apple IdP: the nonce is
/// handled right, the tutorial's mistake is refused, and the first-time name is kept.
@Suite struct AppleProviderTests {
  static let apple = try! EmbeddedIdentityProvider.apple()

  static func backend() throws -> EmbeddedBackend {
    var configuration = try EmbeddedBackend.Configuration(trusting: [apple])
    configuration.scrypt = ScryptParameters(n: 1 << 10, r: 8, p: 1)
    return try EmbeddedBackend(directory: nil, configuration: configuration)
  }

  /// An "Apple" that signs the hashed nonce it is asked for.
  static func provider(email: String, name: (String, String)? = nil, nonceToSign: (@Sendable (String) -> String)? = nil)
    -> AppleProvider
  {
    AppleProvider { hashedNonce in
      AppleProvider.Authorization(
        identityToken: try apple.idToken(email: email, nonce: nonceToSign?(hashedNonce) ?? hashedNonce),
        givenName: name?.0, familyName: name?.1)
    }
  }

  @Test func theRawNonceIsRandomAndOnlyItsHashGoesToApple() async throws {
    let seen = Locked<String?>(nil)
    let provider = AppleProvider { hashed in
      seen.withLock { $0 = hashed }
      return AppleProvider.Authorization(identityToken: "t")
    }
    let credential = try await provider.credential()
    let raw = try #require(credential.rawNonce)
    #expect(raw.count == 43)
    #expect(seen.withLock { $0 } == AppleProvider.hashedNonce(raw))
    #expect(seen.withLock { $0 }?.count == 64)
    #expect(try AppleProvider.makeRawNonce() != raw)
  }

  @Test func signsInAndKeepsTheNameSharedOnTheFirstSignIn() async throws {
    let auth = Auth(backend: try Self.backend(), store: InMemorySessionStore())
    let first = try await auth.signIn(with: Self.provider(email: "tim@example.com", name: ("Tim", "Apple")))
    #expect(first.isNewUser)
    #expect(first.user.displayName == "Tim Apple")
    try await auth.signOut()
    let again = try await auth.signIn(with: Self.provider(email: "tim@example.com"))
    #expect(!again.isNewUser)
    #expect(again.user.displayName == "Tim Apple")
    await auth.shutdown()
  }

  @Test func theHashedNoncePassedAsRawIsRefused() async throws {
    // The seed tutorial's mistake: the backend gets the hash where the raw nonce belongs.
    let provider = AppleProvider(
      identityToken: try Self.apple.idToken(email: "tim@example.com", nonce: AppleProvider.hashedNonce("raw-1")),
      rawNonce: AppleProvider.hashedNonce("raw-1"))
    let auth = Auth(backend: try Self.backend(), store: InMemorySessionStore())
    let error = try await #require(throws: AuthError.self) { _ = try await auth.signIn(with: provider) }
    #expect(error.code == .invalidCredential)
    #expect(auth.currentUser == nil)
    let right = AppleProvider(
      identityToken: try Self.apple.idToken(email: "tim@example.com", nonce: AppleProvider.hashedNonce("raw-1")),
      rawNonce: "raw-1")
    #expect(try await auth.signIn(with: right).user.email == "tim@example.com")
    await auth.shutdown()
  }

  @Test func theFullNameTravelsInFirebasesPostBody() {
    let credential = ProviderCredential(
      providerID: .apple, idToken: "t", rawNonce: "r", givenName: "Tim", familyName: "Apple")
    #expect(
      credential.postBody.hasSuffix(
        "&user=%7B%22name%22%3A%7B%22firstName%22%3A%22Tim%22%2C%22lastName%22%3A%22Apple%22%7D%7D"))
  }

  // The logic of the AuthenticationServices adapter, which cannot be compiled here.

  @Test func anAppleIDCredentialBecomesAnAuthorizationWithItsNameParts() throws {
    let authorization = try AppleProvider.Authorization(
      identityTokenData: Data("header.claims.signature".utf8), givenName: "Ada", familyName: "")
    #expect(authorization.identityToken == "header.claims.signature")
    #expect(authorization.givenName == "Ada" && authorization.familyName == nil)
  }

  @Test(arguments: [nil, Data(), Data([0xFF, 0xFE])])
  func aCredentialWithoutAUsableTokenIsAnInvalidResponse(_ data: Data?) {
    let error = #expect(throws: AuthError.self) {
      try AppleProvider.Authorization(identityTokenData: data, givenName: nil, familyName: nil)
    }
    #expect(error?.code == .invalidResponse)
    #expect(error?.message.contains("capability") == true)
  }

  @Test func authorizationErrorCodesAreWordedForThePerson() {
    #expect(AppleProvider.error(forAuthorizationErrorCode: 1001).code == .userCancelled)
    #expect(AppleProvider.error(forAuthorizationErrorCode: 1002).code == .invalidResponse)
    #expect(AppleProvider.error(forAuthorizationErrorCode: 1004).code == .unavailable)
    #expect(AppleProvider.error(forAuthorizationErrorCode: 1005).code == .cancelled)
    let unknown = AppleProvider.error(forAuthorizationErrorCode: 1000)
    #expect(unknown.code == .unavailable && unknown.message.contains("Apple Account"))
    #expect(AppleProvider.error(forAuthorizationErrorCode: 4242).message.contains("4242"))
  }
}
