import Foundation
import SignInCrypto
import SignInKit
import SignInKitEmbedded
import SignInKitFlows
import SignInKitTesting
import Testing

/// The account screens driven as a person drives them, on the embedded backend and over HTTP.
@MainActor @Suite struct AccountFlowTests {
  /// A signed-up user of `fixture`'s `Auth`, with a verified email, and its account flow.
  static func signedIn(_ fixture: FlowFixture) async throws -> (User, AccountFlow) {
    let result = try await fixture.auth.signUp(email: "ada@example.com", password: "correct horse")
    try await fixture.auth.sendEmailVerification()
    let code = try #require(await fixture.backend.mailbox(for: "ada@example.com").last?.code)
    try await fixture.auth.applyActionCode(code)
    let account = AccountFlow(auth: fixture.auth, issuer: "Example")
    account.strings = english
    return (result.user, account)
  }

  @Test(arguments: FlowBackend.allCases)
  func aStaleSessionAskedToDeleteGoesThroughReauthenticationAndEndsSignedOutAsDeleted(on kind: FlowBackend)
    async throws
  {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (user, account) = try await Self.signedIn(fixture)
    fixture.clock.advance(6 * 60)  // past the backend's 5 minutes of a recent sign-in
    await account.deleteAccount()
    #expect(account.step == .reauthenticate(for: .deleteAccount))
    #expect(account.errorMessage == nil)
    #expect(!account.isBusy)

    account.password = "wrong horse"
    await account.submit()
    #expect(account.step == .reauthenticate(for: .deleteAccount))
    #expect(account.errorMessage == "The email or password is wrong. Try again, or reset your password.")
    account.password = "correct horse"
    await account.submit()
    #expect(account.step == .signedOut)
    #expect(account.user == nil)
    #expect(fixture.auth.currentState == .signedOut(.userDeleted))
    #expect(await fixture.backend.uid(forEmail: "ada@example.com") == nil, "\(user.uid) is gone")
  }

  @Test(arguments: FlowBackend.allCases)
  func cancellingTheReauthenticationChangesNothing(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (user, account) = try await Self.signedIn(fixture)
    fixture.clock.advance(6 * 60)
    await account.deleteAccount()
    account.cancel()
    #expect(account.step == .overview)
    #expect(account.errorMessage == nil)
    #expect(await fixture.backend.uid(forEmail: "ada@example.com") == user.uid)
  }

  @Test(arguments: FlowBackend.allCases)
  func aPasswordChangedRightAfterSignInNeedsNoSecondSignIn(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (_, account) = try await Self.signedIn(fixture)
    account.newPassword = "short"
    await account.changePassword()
    #expect(account.errorMessage == "Your password needs at least 6 characters.")
    account.newPassword = "battery staple"
    await account.changePassword()
    #expect(account.step == .overview)
    #expect(account.notice == "Your password was changed.")
    try await fixture.auth.signOut()
    _ = try await fixture.auth.signIn(email: "ada@example.com", password: "battery staple")
  }

  @Test(arguments: FlowBackend.allCases)
  func anAuthenticatorAppIsAddedWithItsQRCodeAndItsFirstCode(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (_, account) = try await Self.signedIn(fixture)
    await account.addAuthenticatorApp()
    guard case .authenticatorApp(let uri) = account.step else { throw FlowFailure("no QR code: \(account.step)") }
    let query = try #require(URLComponents(url: uri, resolvingAgainstBaseURL: false))
    #expect(query.scheme == "otpauth")
    #expect(query.queryItems?.first { $0.name == "issuer" }?.value == "Example")
    let secret = try #require(query.queryItems?.first { $0.name == "secret" }?.value.flatMap(Base32.decode))

    account.code = "12345"
    await account.submit()
    #expect(account.errorMessage == "Enter the 6-digit code.")
    account.code = OneTimePassword.totp(secret: secret, at: fixture.clock.now)
    await account.submit()
    #expect(account.step == .overview)
    #expect(account.user?.secondFactors.map(\.kind) == [.totp])
  }

  @Test(arguments: FlowBackend.allCases)
  func aPhoneIsAddedAsASecondFactorWithTheCodeTextedToIt(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (_, account) = try await Self.signedIn(fixture)
    account.addPhoneFactor()
    account.countryCode = "1"
    account.phoneNumber = "555 555 0199"
    await account.submit()
    #expect(account.step == .phoneFactorCode(sentTo: "+*******0199"))
    account.code = try #require(await fixture.backend.verificationCodes().last?.code)
    await account.submit()
    #expect(account.step == .overview)
    let factor = try #require(account.user?.secondFactors.first)
    #expect(factor.kind == .phone)
    await account.removeSecondFactor(factor.enrollmentID)
    #expect(account.user?.secondFactors.isEmpty == true)
  }

  @Test(arguments: FlowBackend.allCases)
  func theLastWayInCannotBeRemoved(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (_, account) = try await Self.signedIn(fixture)
    await account.unlink(.password)
    #expect(account.errorMessage == "This is the only way to sign in to the account; add another before removing it.")
    #expect(account.user?.providers.map(\.providerID) == [.password])
  }

  @Test(arguments: FlowBackend.allCases)
  func theProfileNameIsSavedAndSigningOutEndsTheAccountScreens(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (_, account) = try await Self.signedIn(fixture)
    account.displayName = "  Ada Lovelace "
    await account.saveProfile()
    #expect(account.user?.displayName == "Ada Lovelace")
    await account.signOut()
    #expect(account.step == .signedOut)
    #expect(fixture.auth.currentState == .signedOut(.userRequested))
  }

  @Test(arguments: FlowBackend.allCases)
  func aPictureIsSavedAndAnAddressThatIsNotOneSaysSo(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (_, account) = try await Self.signedIn(fixture)
    account.photoURL = "ada.png"
    await account.saveProfile()
    #expect(account.errorMessage == "ada.png is not the web address of a picture; use one that starts with https://.")
    account.photoURL = "https://example.com/ada.png"
    await account.saveProfile()
    #expect(account.errorMessage == nil)
    #expect(account.user?.photoURL == URL(string: "https://example.com/ada.png"))
  }

  @Test(arguments: FlowBackend.allCases)
  func aProviderIsLinkedAndAPasskeyAddedAndRemoved(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind, acceptsUnsignedIdPTokens: true)
    defer { fixture.stop() }
    _ = try await fixture.auth.signUp(email: "ada@example.com", password: "correct horse")
    let github = StubProvider(
      .github,
      result: .success(
        ProviderCredential(providerID: .github, idToken: #"{"sub":"gh-1815","email":"ada@example.com"}"#)))
    let device = try DevelopmentPasskeyAuthenticator(directory: nil)
    let account = AccountFlow(auth: fixture.auth, issuer: "Example", providers: [github], passkeys: device)
    account.strings = english
    await account.link(.github)
    #expect(Set(account.user?.providers.map(\.providerID) ?? []) == [.password, .github])
    await account.link(.google)
    #expect(account.errorMessage == "This app has no Google sign-in set up; choose another way.")

    await account.addPasskey(named: "Laptop")
    let passkey = try #require(account.user?.passkeys.first)
    #expect(passkey.name == "Laptop")
    await account.removePasskey(passkey.credentialID)
    #expect(account.user?.passkeys.isEmpty == true)
  }

  @Test(arguments: FlowBackend.allCases)
  func anAccountWithoutAPasswordSignsInAgainWithItsProviderToBeDeleted(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind, acceptsUnsignedIdPTokens: true)
    defer { fixture.stop() }
    let google = StubProvider(
      .google,
      result: .success(ProviderCredential(providerID: .google, idToken: #"{"sub":"g-1815","email":"ada@example.com"}"#))
    )
    _ = try await fixture.auth.signIn(with: google)
    let account = AccountFlow(auth: fixture.auth, issuer: "Example", providers: [google])
    account.strings = english
    fixture.clock.advance(6 * 60)
    await account.deleteAccount()
    #expect(account.step == .reauthenticate(for: .deleteAccount))
    await account.reauthenticate(with: .google)
    #expect(account.step == .signedOut)
    #expect(fixture.auth.currentState == .signedOut(.userDeleted))
  }
}
