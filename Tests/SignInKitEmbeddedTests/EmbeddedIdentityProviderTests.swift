import Foundation
import SignInEmbeddedTestSupport
import SignInKitTesting
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

@Suite struct EmbeddedIdentityProviderTests {
  let google: EmbeddedIdentityProvider
  let apple: EmbeddedIdentityProvider
  let backend: EmbeddedBackend

  init() throws {
    google = try .google()
    apple = try .apple()
    var configuration = try EmbeddedBackend.Configuration(trusting: [google, apple])
    configuration.scrypt = EmbeddedTestBackend.fast.scrypt
    backend = try EmbeddedBackend(directory: nil, configuration: configuration)
  }

  func googleCredential(_ email: String) throws -> ProviderCredential {
    ProviderCredential(providerID: .google, idToken: try google.idToken(email: email))
  }

  @Test func googleSignInCreatesThenFindsTheAccount() async throws {
    let first = try await backend.signInWithIdp(.init(credential: try googleCredential("ada@example.com")))
    #expect(first.isNewUser)
    let second = try await backend.signInWithIdp(.init(credential: try googleCredential("ada@example.com")))
    #expect(!second.isNewUser)
    #expect(second.localID == first.localID)
    let account = try await backend.lookup(.init(idToken: second.tokens.idToken))
    #expect(account.providers.map(\.providerID) == [.google])
    #expect(account.emailVerified)
  }

  @Test func appleRequiresTheRawNonceOfTheTokensNonceClaim() async throws {
    let raw = "raw-nonce-42"
    let token = try apple.idToken(
      email: "ada@example.com", nonce: EmbeddedIdentityProvider.appleNonceClaim(for: raw))
    for wrong in [nil, "other-nonce"] {
      let error = await #expect(throws: AuthError.self) {
        try await backend.signInWithIdp(
          .init(credential: .init(providerID: .apple, idToken: token, rawNonce: wrong)))
      }
      #expect(error?.serverMessage == "MISSING_OR_INVALID_NONCE")
    }
    let ok = try await backend.signInWithIdp(
      .init(credential: .init(providerID: .apple, idToken: token, rawNonce: raw)))
    #expect(ok.isNewUser)
  }

  @Test func linkingKeepsTheUIDAndACredentialLinkedElsewhereIsRefused() async throws {
    let anonymous = try await backend.signUp(SignUpRequest())
    let linked = try await backend.signInWithIdp(
      .init(credential: try googleCredential("ada@example.com"), idToken: anonymous.tokens.idToken))
    #expect(linked.localID == anonymous.localID)
    let other = try await backend.signUp(SignUpRequest())
    let error = await #expect(throws: AuthError.self) {
      try await backend.signInWithIdp(
        .init(credential: try googleCredential("ada@example.com"), idToken: other.tokens.idToken))
    }
    #expect(error?.serverMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
    #expect(error?.code == .credentialAlreadyInUse)
  }

  @Test func anExistingEmailNeedsConfirmation() async throws {
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    let error = await #expect(throws: AuthError.self) {
      try await backend.signInWithIdp(.init(credential: try googleCredential("ada@example.com")))
    }
    #expect(error?.code == .accountExistsWithDifferentCredential)
  }

  @Test func tokensFromAnUntrustedKeyOrProviderAreRefused() async throws {
    let impostor = try EmbeddedIdentityProvider.google()
    let forged = ProviderCredential(providerID: .google, idToken: try impostor.idToken(email: "a@b.co"))
    let error = await #expect(throws: AuthError.self) { try await backend.signInWithIdp(.init(credential: forged)) }
    #expect(error?.serverMessage?.hasPrefix("INVALID_IDP_RESPONSE : no published key matches kid ") == true)
    let facebook = ProviderCredential(providerID: "facebook.com", idToken: "x.y.z")
    let disabled = await #expect(throws: AuthError.self) {
      try await backend.signInWithIdp(.init(credential: facebook))
    }
    #expect(disabled?.serverMessage == "OPERATION_NOT_ALLOWED")
  }

  @Test func unsignedTokensAreAcceptedOnlyWhenConfigured() async throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    let emulatorLike = try EmbeddedBackend(directory: nil, configuration: configuration)
    let json = #"{"sub":"g-1","email":"ada@example.com","email_verified":true}"#
    let result = try await emulatorLike.signInWithIdp(
      .init(credential: .init(providerID: .google, idToken: json)))
    #expect(result.isNewUser)
    await #expect(throws: AuthError.self) {
      try await backend.signInWithIdp(.init(credential: .init(providerID: .google, idToken: json)))
    }
  }

  @Test func keyFileKeepsTheSameSigningKeyAcrossInstances() throws {
    let directory = ScratchDirectory()
    try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    let file = directory.url.appendingPathComponent("google-key.pem")
    let first = try EmbeddedIdentityProvider.google(keyFile: file)
    let second = try EmbeddedIdentityProvider.google(keyFile: file)
    #expect(try first.jwks == second.jwks)
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func theKeyIsReadOnFirstUseSoStartUpPaysNothing() throws {
    let directory = ScratchDirectory()
    try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    let file = directory.url.appendingPathComponent("google-key.pem")
    let google = try EmbeddedIdentityProvider.google(keyFile: file)
    _ = try EmbeddedBackend.Configuration(trusting: [google])
    #expect(!FileManager.default.fileExists(atPath: file.path))
    _ = try google.idToken(email: "ada@example.com")
    #expect(FileManager.default.fileExists(atPath: file.path))
  }

  @Test func anUnusableKeyFileIsReportedAtFirstUseAndLeftAsItIs() async throws {
    let directory = ScratchDirectory()
    try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    let file = directory.url.appendingPathComponent("google-key.pem")
    try Data("not a key".utf8).write(to: file)
    let google = try EmbeddedIdentityProvider.google(keyFile: file)
    let error = #expect(throws: AuthError.self) { try google.idToken(email: "ada@example.com") }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("google-key.pem") == true)
    // The same answer again, and the backend that trusts it says so instead of accepting.
    #expect(throws: AuthError.self) { try google.jwks }
    let backend = try EmbeddedBackend(directory: nil, configuration: .init(trusting: [google]))
    let token = try EmbeddedIdentityProvider.google().idToken(email: "ada@example.com")
    await #expect(throws: AuthError.self) {
      try await backend.signInWithIdp(.init(credential: .init(providerID: .google, idToken: token)))
    }
    #expect(try Data(contentsOf: file) == Data("not a key".utf8))
  }

  @Test func authSignsInWithAProviderBackedByTheEmbeddedIdP() async throws {
    actor EmbeddedGoogle: SignInProvider {
      let id = ProviderID.google
      let idp: EmbeddedIdentityProvider
      init(_ idp: EmbeddedIdentityProvider) { self.idp = idp }
      func credential() async throws -> ProviderCredential {
        ProviderCredential(providerID: .google, idToken: try idp.idToken(email: "grace@example.com"))
      }
      func signOut() async {}
    }
    let auth = Auth(backend: backend, store: InMemorySessionStore(), clock: ManualClock())
    let result = try await auth.signIn(with: EmbeddedGoogle(google))
    #expect(result.isNewUser)
    #expect(result.user.email == "grace@example.com")
    #expect(result.user.providers.map(\.providerID) == [.google])
    await auth.shutdown()
  }
}
