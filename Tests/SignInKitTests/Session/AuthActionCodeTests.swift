import Foundation
import SignInKitTesting
import Testing

@testable import SignInKit

/// Email-link sign-in and the action-code calls, on the scripted backend, the embedded one, and
/// `FirebaseBackend` talking to the embedded one over HTTP (`BackendKind`).
@Suite(.timeLimit(.minutes(3)))
struct AuthActionCodeTests {
  static let settings = ActionCodeSettings(
    continueURL: URL(string: "https://example.com/finish-sign-in")!, handlesCodeInApp: true,
    iOSBundleID: "com.example.app")

  /// The link Firebase would email with `code`, wrapped as an app link the way Dynamic Links
  /// hand it to the app.
  static func link(_ code: String) -> String {
    let inner = "https://demo.firebaseapp.com/__/auth/action?apiKey=k&mode=signIn&oobCode=\(code)&lang=en"
    var wrapper = URLComponents(string: "https://example.page.link/")!
    wrapper.queryItems = [URLQueryItem(name: "link", value: inner)]
    return wrapper.url!.absoluteString
  }

  static func sentLink(_ harness: Harness, to email: String) async throws -> String {
    link(try #require(await harness.controls.codes(sentTo: email).last))
  }

  @Test(arguments: BackendKind.allCases)
  func anEmailLinkSignsInANewUserWithAVerifiedEmail(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.auth.sendSignInLink(to: "grace@example.com", settings: Self.settings)
    let link = try await Self.sentLink(harness, to: "grace@example.com")
    #expect(harness.auth.isSignInLink(link))
    let result = try await harness.auth.signIn(email: "grace@example.com", link: link)
    #expect(result.isNewUser)
    #expect(result.user.email == "grace@example.com")
    #expect(result.user.emailVerified)
    #expect(!result.user.isAnonymous)
    #expect(await harness.shownState() == .signedIn(result.user, .fresh))
    // A link works once.
    try await harness.auth.signOut()
    let again = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "grace@example.com", link: link)
    }
    #expect(again?.code == .invalidActionCode)
  }

  @Test(arguments: BackendKind.allCases)
  func anEmailLinkSignsInTheExistingAccountOfItsAddress(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let signedUp = try await harness.signUp("ada@example.com")
    try await harness.auth.signOut()
    try await harness.auth.sendSignInLink(to: "ada@example.com", settings: Self.settings)
    let result = try await harness.auth.signIn(
      email: "ada@example.com", link: try await Self.sentLink(harness, to: "ada@example.com"))
    #expect(result.user.uid == signedUp.user.uid)
    #expect(!result.isNewUser)
  }

  @Test(arguments: BackendKind.allCases)
  func aLinkForAnotherAddressSignsNobodyIn(kind: BackendKind) async throws {
    let harness = Harness(kind)
    _ = try await harness.auth.restorePreviousSignIn()
    try await harness.auth.sendSignInLink(to: "grace@example.com", settings: Self.settings)
    let link = try await Self.sentLink(harness, to: "grace@example.com")
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "eve@example.com", link: link)
    }
    #expect(error?.code == .invalidEmail)
    #expect(await harness.shownState() == .signedOut(.initial))
  }

  @Test(arguments: BackendKind.allCases)
  func linkingAnEmailLinkToAnAnonymousUserKeepsTheUid(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let anonymous = try await harness.auth.signInAnonymously()
    #expect(anonymous.user.isAnonymous)
    try await harness.auth.sendSignInLink(to: "grace@example.com", settings: Self.settings)
    let linked = try await harness.auth.linkEmail(
      "grace@example.com", link: try await Self.sentLink(harness, to: "grace@example.com"))
    #expect(linked.user.uid == anonymous.user.uid)
    #expect(linked.user.email == "grace@example.com")
    #expect(!linked.user.isAnonymous)
    #expect(harness.auth.currentUser == linked.user)
  }

  @Test func aSignInLinkNeedsAContinueURLTheAppHandles() async throws {
    let harness = Harness()
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.sendSignInLink(to: "grace@example.com", settings: ActionCodeSettings())
    }
    #expect(error?.code == .misconfigured)
    #expect(error?.message.contains("handlesCodeInApp") == true)
    #expect(harness.backend.count(of: .sendOobCode) == 0)
  }

  @Test func onlyLinksWithASignInCodeAreSignInLinks() {
    let auth = Harness().auth
    #expect(auth.isSignInLink("https://x.firebaseapp.com/__/auth/action?mode=signIn&oobCode=C"))
    #expect(auth.isSignInLink(Self.link("C")))
    #expect(!auth.isSignInLink("https://x.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=C"))
    #expect(!auth.isSignInLink("https://x.firebaseapp.com/__/auth/action?mode=signIn"))
    #expect(!auth.isSignInLink("not a link"))
  }

  @Test(arguments: BackendKind.allCases)
  func checkActionCodeSaysWhatACodeIsForWithoutUsingItUp(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp("ada@example.com")
    try await harness.auth.sendPasswordReset(to: "ada@example.com", settings: Self.settings)
    let code = try #require(await harness.controls.codes(sentTo: "ada@example.com").last)
    #expect(
      try await harness.auth.checkActionCode(code)
        == ActionCodeInfo(operation: .passwordReset, email: "ada@example.com"))
    #expect(try await harness.auth.verifyPasswordResetCode(code) == "ada@example.com")
    try await harness.auth.confirmPasswordReset(code: code, newPassword: "a new password")
    let used = await #expect(throws: AuthError.self) { try await harness.auth.checkActionCode(code) }
    #expect(used?.code == .invalidActionCode)
  }

  @Test(arguments: BackendKind.allCases)
  func verifyPasswordResetCodeRefusesOtherCodes(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp("ada@example.com")
    try await harness.auth.sendEmailVerification()
    let code = try #require(await harness.controls.codes(sentTo: "ada@example.com").last)
    #expect(try await harness.auth.checkActionCode(code).operation == .verifyEmail)
    let error = await #expect(throws: AuthError.self) { try await harness.auth.verifyPasswordResetCode(code) }
    #expect(error?.code == .invalidActionCode)
  }

  @Test(arguments: BackendKind.allCases)
  func verifyingANewEmailFirstChangesItOnlyWhenTheLinkIsUsed(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let signedUp = try await harness.signUp("ada@example.com")
    try await harness.auth.sendEmailVerification(beforeUpdatingEmail: "lovelace@example.com", settings: Self.settings)
    #expect(harness.auth.currentUser?.email == "ada@example.com")
    #expect(try await harness.auth.reload().email == "ada@example.com")
    let code = try #require(await harness.controls.codes(sentTo: "lovelace@example.com").last)
    let info = try await harness.auth.checkActionCode(code)
    #expect(info.operation == .verifyAndChangeEmail)
    #expect(info.newEmail == "lovelace@example.com")
    try await harness.auth.applyActionCode(code)
    let user = try #require(harness.auth.currentUser)
    #expect(user.uid == signedUp.user.uid)
    #expect(user.email == "lovelace@example.com")
    #expect(user.emailVerified)
  }

  @Test(arguments: BackendKind.allCases)
  func aNewEmailAnotherAccountHasIsRefusedBeforeAnyEmailGoesOut(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp("grace@example.com")
    try await harness.auth.signOut()
    try await harness.signUp("ada@example.com")
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.sendEmailVerification(beforeUpdatingEmail: "grace@example.com")
    }
    #expect(error?.code == .emailAlreadyInUse)
  }
}
