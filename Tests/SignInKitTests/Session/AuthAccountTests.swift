import Foundation
import SignInKitEmbedded
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

@Suite(.timeLimit(.minutes(3)))
struct AuthAccountTests {
  static let password = "correct horse"

  // MARK: Sign-up and sign-in

  @Test(arguments: BackendKind.allCases)
  func signUpCreatesAndSignsInANewUser(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let result = try await harness.auth.signUp(email: "Ada@Example.com", password: Self.password)
    #expect(result.isNewUser)
    #expect(result.providerID == .password)
    #expect(result.user.email == "ada@example.com")
    #expect(result.user.providers.map(\.providerID) == [.password])
    #expect(harness.auth.currentUser == result.user)
    #expect(try harness.store.load()?.signInProvider == .password)
  }

  @Test(arguments: [
    ("taken@example.com", "correct horse", AuthError.Code.emailAlreadyInUse),
    ("not-an-email", "correct horse", .invalidEmail),
    ("new@example.com", "short", .weakPassword),
  ])
  func signUpRejectsBadInputWithACode(email: String, password: String, code: AuthError.Code)
    async throws
  {
    let harness = Harness()
    try await harness.signUp("taken@example.com")
    try await harness.auth.signOut()
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signUp(email: email, password: password)
    }
    #expect(error?.code == code)
    #expect(await harness.shownState() == .signedOut(.userRequested))
  }

  @Test(arguments: BackendKind.allCases)
  func signInWithWrongPasswordFailsAndKeepsTheStateSignedOut(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    try await harness.auth.signOut()
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "ada@example.com", password: "wrong password")
    }
    #expect(error?.code == .wrongPassword)
    #expect(await harness.shownState() == .signedOut(.userRequested))
    #expect(await harness.stateStore { $0.errorMessage } == error?.message)
  }

  @Test(arguments: BackendKind.allCases)
  func anonymousSignInHasNoProvidersAndLinkingEmailKeepsTheUID(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let anonymous = try await harness.auth.signInAnonymously()
    #expect(anonymous.user.isAnonymous)
    #expect(anonymous.providerID == .anonymous)
    let linked = try await harness.auth.linkEmail("ada@example.com", password: Self.password)
    #expect(linked.user.uid == anonymous.user.uid)
    #expect(!linked.user.isAnonymous)
    #expect(linked.user.email == "ada@example.com")
    #expect(await harness.shownState() == .signedIn(linked.user, .fresh))
    try await harness.auth.signOut()
    let again = try await harness.auth.signIn(email: "ada@example.com", password: Self.password)
    #expect(again.user.uid == anonymous.user.uid)
  }

  @Test(arguments: BackendKind.allCases)
  func linkingAnEmailThatIsTakenFailsAndKeepsTheAnonymousUser(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp("taken@example.com")
    let anonymous = try await harness.auth.signInAnonymously()
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.linkEmail("taken@example.com", password: Self.password)
    }
    #expect(error?.code == .emailAlreadyInUse)
    #expect(harness.auth.currentUser == anonymous.user)
  }

  // MARK: Providers

  @Test func signInWithAProviderExchangesItsCredential() async throws {
    let harness = Harness()
    let provider = StubProvider(.google, subject: "g-1")
    let first = try await harness.auth.signIn(with: provider)
    #expect(first.isNewUser)
    #expect(first.providerID == .google)
    #expect(first.user.providers.map(\.providerID) == [.google])
    try await harness.auth.signOut()
    #expect(await provider.signOuts == 1)
    let second = try await harness.auth.signIn(with: provider)
    #expect(!second.isNewUser)
    #expect(second.user.uid == first.user.uid)
  }

  @Test func providerFailureIsReportedAndChangesNothing() async throws {
    let harness = Harness()
    _ = try await harness.auth.restorePreviousSignIn()
    let provider = StubProvider(.apple, result: .failure(AuthError(.invalidCredential, "no")))
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(with: provider)
    }
    #expect(error?.code == .invalidCredential)
    #expect(await harness.shownState() == .signedOut(.initial))
  }

  @Test func linkingAProviderKeepsTheUIDAndUnlinkRemovesIt() async throws {
    let harness = Harness()
    let anonymous = try await harness.auth.signInAnonymously()
    let linked = try await harness.auth.link(with: StubProvider(.apple, subject: "a-1"))
    #expect(linked.user.uid == anonymous.user.uid)
    #expect(linked.user.providers.map(\.providerID) == [.apple])
    let unlinked = try await harness.auth.unlink(.apple)
    #expect(unlinked.providers.isEmpty)
    let error = await #expect(throws: AuthError.self) { try await harness.auth.unlink(.google) }
    #expect(error?.code == .noSuchProvider)
  }

  @Test func linkingACredentialOfAnotherAccountFails() async throws {
    let harness = Harness()
    _ = try await harness.auth.signIn(with: StubProvider(.google, subject: "shared"))
    try await harness.auth.signOut()
    let anonymous = try await harness.auth.signInAnonymously()
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.link(with: StubProvider(.google, subject: "shared"))
    }
    #expect(error?.code == .credentialAlreadyInUse)
    #expect(harness.auth.currentUser == anonymous.user)
  }

  // MARK: Profile, email, password

  @Test(arguments: BackendKind.allCases)
  func updateProfileChangesAndRemovesFields(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    let photo = URL(string: "https://example.com/ada.png")!
    let updated = try await harness.auth.updateProfile(displayName: "Ada", photoURL: photo)
    #expect(updated.displayName == "Ada")
    #expect(updated.photoURL == photo)
    #expect(try harness.store.load()?.user == updated)
    let cleared = try await harness.auth.updateProfile(displayName: "", photoURL: nil)
    #expect(cleared.displayName == nil)
    #expect(cleared.photoURL == photo)
  }

  @Test(arguments: BackendKind.allCases)
  func reloadPicksUpChangesMadeElsewhere(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let result = try await harness.signUp()
    try await harness.auth.sendEmailVerification()
    let code = try #require(await harness.controls.codes(sentTo: "ada@example.com").last)
    // Verified "in a browser": the backend knows, this Auth does not yet.
    _ = try await harness.backendUnderTest.update(UpdateAccountRequest(oobCode: code))
    #expect(harness.auth.currentUser?.emailVerified == false)
    let reloaded = try await harness.auth.reload()
    #expect(reloaded.uid == result.user.uid)
    #expect(reloaded.emailVerified)
  }

  @Test(arguments: BackendKind.allCases)
  func updateEmailStoresTheNewTokensBeforePublishing(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    let tokens = Recorder.start(harness.auth.idTokens)
    let before = try #require(try harness.store.load())
    let updated = try await harness.auth.updateEmail("grace@example.com")
    let after = try #require(try harness.store.load())
    #expect(updated.email == "grace@example.com")
    #expect(after.user == updated)
    #expect(after.idToken != before.idToken)
    #expect(after.refreshToken != before.refreshToken)
    await tokens.wait(for: after.idToken)
    #expect(try await harness.auth.idToken() == after.idToken)
  }

  @Test(arguments: BackendKind.allCases)
  func updatePasswordReplacesTheOldPassword(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let signedUp = try await harness.signUp()
    let updated = try await harness.auth.updatePassword("new password")
    #expect(updated.uid == signedUp.user.uid)
    #expect(harness.auth.currentUser == updated)
    try await harness.auth.signOut()
    await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "ada@example.com", password: Self.password)
    }
    _ = try await harness.auth.signIn(email: "ada@example.com", password: "new password")
  }

  @Test func requiresRecentLoginIsReportedAndKeepsTheSession() async throws {
    let harness = Harness()
    let result = try await harness.signUp()
    harness.backend.script(
      .update, .fail(AuthError(.requiresRecentLogin, "Sign in again to change your email.")))
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.updateEmail("grace@example.com")
    }
    #expect(error?.code == .requiresRecentLogin)
    #expect(await harness.shownState() == .signedIn(result.user, .fresh))
    _ = try await harness.auth.reauthenticate(email: "ada@example.com", password: Self.password)
    try await harness.auth.updateEmail("grace@example.com")
    #expect(harness.auth.currentUser?.email == "grace@example.com")
  }

  @Test(arguments: BackendKind.allCases)
  func reauthenticatingAsAnotherAccountChangesNothing(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp("other@example.com")
    let current = try await harness.signUp("ada@example.com")
    let stored = try harness.store.load()
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.reauthenticate(email: "other@example.com", password: Self.password)
    }
    #expect(error?.code == .userMismatch)
    #expect(harness.auth.currentUser == current.user)
    #expect(try harness.store.load() == stored)
  }

  @Test func reauthenticatingWithAProviderRefreshesTheSession() async throws {
    let harness = Harness()
    let provider = StubProvider(.google, subject: "g-7")
    let first = try await harness.auth.signIn(with: provider)
    let before = try harness.store.load()?.idToken
    // A token is dated to the second: one made a second later is another token.
    harness.clock.advance(by: .seconds(1))
    let user = try await harness.auth.reauthenticate(with: provider)
    #expect(user.uid == first.user.uid)
    #expect(try harness.store.load()?.idToken != before)
  }

  /// The provider's own session (Google's refresh token and scopes) goes with the account, as
  /// it goes with a sign-out.
  @Test func deletingTheAccountSignsOutOfTheProviderItSignedInWith() async throws {
    let harness = Harness()
    let google = StubProvider(.google, subject: "g-1")
    _ = try await harness.auth.signIn(with: google)
    try await harness.auth.deleteAccount()
    #expect(await google.signOuts == 1)
    #expect(await harness.shownState() == .signedOut(.userDeleted))
  }

  @Test(arguments: BackendKind.allCases)
  func deleteAccountSignsOutAsDeletedAndTheAccountIsGone(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    try await harness.auth.deleteAccount()
    #expect(await harness.shownState() == .signedOut(.userDeleted))
    #expect(try harness.store.load() == nil)
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "ada@example.com", password: Self.password)
    }
    #expect(error?.code == .userNotFound)
  }

  @Test(arguments: BackendKind.allCases)
  func accountDeletedElsewhereSignsOutOnTheNextAccountCall(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let result = try await harness.signUp()
    try await harness.controls.deleteUser(uid: result.user.uid)
    let error = await #expect(throws: AuthError.self) { try await harness.auth.reload() }
    #expect(error?.code == .userNotFound)
    #expect(await harness.shownState() == .signedOut(.userDeleted))
  }

  // MARK: Out-of-band codes

  @Test(arguments: BackendKind.allCases)
  func passwordResetSendsACodeThatSetsANewPasswordOnce(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    try await harness.auth.signOut()
    try await harness.auth.sendPasswordReset(to: "ada@example.com")
    let code = try #require(await harness.controls.codes(sentTo: "ada@example.com").last)
    try await harness.auth.confirmPasswordReset(code: code, newPassword: "brand new")
    _ = try await harness.auth.signIn(email: "ada@example.com", password: "brand new")
    let reused = await #expect(throws: AuthError.self) {
      try await harness.auth.confirmPasswordReset(code: code, newPassword: "again again")
    }
    #expect(reused?.code == .invalidActionCode)
  }

  @Test(arguments: BackendKind.allCases)
  func applyingAVerificationCodeUpdatesTheSignedInUser(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    let events = Recorder.start(harness.auth.events)
    try await harness.auth.sendEmailVerification()
    let code = try #require(await harness.controls.codes(sentTo: "ada@example.com").last)
    try await harness.auth.applyActionCode(code)
    let user = try #require(harness.auth.currentUser)
    #expect(user.emailVerified)
    await events.wait(for: .userUpdated(user))
  }

  @Test(arguments: BackendKind.allCases)
  func operationsThatNeedAUserSaySignInFirst(kind: BackendKind) async {
    let harness = Harness(kind)
    for operation in [
      { _ = try await harness.auth.reload() },
      { try await harness.auth.sendEmailVerification() },
      { try await harness.auth.deleteAccount() },
      { _ = try await harness.auth.linkEmail("a@b.co", password: Self.password) },
    ] as [@Sendable () async throws -> Void] {
      let error = await #expect(throws: AuthError.self) { try await operation() }
      #expect(error?.code == .noCurrentUser)
    }
  }
}
