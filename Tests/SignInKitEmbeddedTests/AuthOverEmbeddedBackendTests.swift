import Foundation
import SignInEmbeddedTestSupport
import SignInKitTesting
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// The `Auth` behaviours of the core suite, against the real embedded backend instead of the
/// scripted one.
@Suite(.timeLimit(.minutes(3)))
struct AuthOverEmbeddedBackendTests {
  @Test func signUpThenRestoreAfterARestartOfBothAuthAndBackend() async throws {
    let data = ScratchDirectory()
    let sessions = ScratchDirectory()
    let clock = ManualClock()
    var backend: EmbeddedBackend? = try EmbeddedBackend(
      directory: data.url, configuration: EmbeddedTestBackend.fast, now: { clock.date })
    var auth: Auth? = Auth(
      backend: backend!, store: FileSessionStore(directory: sessions.url), clock: clock,
      now: { clock.date })
    let created = try await auth!.signUp(email: "ada@example.com", password: "secret1")
    #expect(created.isNewUser)
    await auth!.shutdown()
    await backend!.close()
    auth = nil
    backend = nil

    // The next launch: new backend over the same data, new Auth over the same session file.
    clock.advance(by: .seconds(3400))  // the stored ID token has < 5 minutes left
    let reopened = try EmbeddedBackend(
      directory: data.url, configuration: EmbeddedTestBackend.fast, now: { clock.date })
    let relaunched = Auth(
      backend: reopened, store: FileSessionStore(directory: sessions.url), clock: clock,
      now: { clock.date })
    #expect(await relaunched.hasPreviousSignIn())
    let restored = try await relaunched.restorePreviousSignIn()
    #expect(restored?.uid == created.user.uid)
    #expect(await shownState(relaunched) == .signedIn(restored!, .fresh))
    let token = try await relaunched.idToken()
    #expect(try await reopened.lookup(.init(idToken: token)).localID == created.user.uid)
    await relaunched.shutdown()
  }

  @Test func anonymousUpgradePasswordResetAndDeletionThroughAuth() async throws {
    let backend = try EmbeddedBackend(directory: nil, configuration: EmbeddedTestBackend.fast)
    let auth = Auth(backend: backend, store: InMemorySessionStore(), clock: ManualClock())
    let anonymous = try await auth.signInAnonymously()
    #expect(anonymous.user.isAnonymous)
    let linked = try await auth.linkEmail("ada@example.com", password: "secret1")
    #expect(linked.user.uid == anonymous.user.uid)
    try await auth.signOut()

    try await auth.sendPasswordReset(to: "ada@example.com")
    let code = try #require(await backend.mailbox(for: "ada@example.com").last?.code)
    try await auth.confirmPasswordReset(code: code, newPassword: "secret2")
    let wrong = await #expect(throws: AuthError.self) {
      try await auth.signIn(email: "ada@example.com", password: "secret1")
    }
    #expect(wrong?.code == .wrongPassword)
    let again = try await auth.signIn(email: "ada@example.com", password: "secret2")
    #expect(again.user.uid == anonymous.user.uid)

    try await auth.sendEmailVerification()
    let verify = try #require(await backend.mailbox(for: "ada@example.com").last?.code)
    try await auth.applyActionCode(verify)
    #expect(auth.currentUser?.emailVerified == true)

    try await auth.deleteAccount()
    #expect(await shownState(auth) == .signedOut(.userDeleted))
    await auth.shutdown()
  }

  @Test func theMailboxLinkOfASignInEmailSignsInAndSurvivesARestart() async throws {
    let data = ScratchDirectory()
    let settings = ActionCodeSettings(continueURL: URL(string: "https://example.com/done")!, handlesCodeInApp: true)
    var backend: EmbeddedBackend? = try EmbeddedBackend(directory: data.url, configuration: EmbeddedTestBackend.fast)
    let auth = Auth(backend: backend!, store: InMemorySessionStore(), clock: ManualClock())
    try await auth.sendSignInLink(to: "Grace@Example.com", settings: settings)
    let message = try #require(await backend!.mailbox(for: "grace@example.com").last)
    #expect(message.kind == "EMAIL_SIGNIN")
    let link = try #require(message.link)
    // On this machine: a real project may own signinkit-local.firebaseapp.com.
    #expect(link.hasPrefix("http://localhost/__/auth/action?"))
    #expect(link.contains("mode=signIn") && link.contains("continueUrl=https://example.com/done"))
    #expect(auth.isSignInLink(link))
    let signedIn = try await auth.signIn(email: "grace@example.com", link: link)
    #expect(signedIn.isNewUser && signedIn.user.emailVerified)
    #expect(signedIn.user.providers.map(\.providerID) == [.password])
    await auth.shutdown()
    await backend!.close()
    backend = nil

    // The account, and the spent code, are on disk.
    let reopened = try EmbeddedBackend(directory: data.url, configuration: EmbeddedTestBackend.fast)
    let next = Auth(backend: reopened, store: InMemorySessionStore(), clock: ManualClock())
    let spent = await #expect(throws: AuthError.self) { try await next.signIn(email: "grace@example.com", link: link) }
    #expect(spent?.code == .invalidActionCode)
    try await next.sendSignInLink(to: "grace@example.com", settings: settings)
    let second = try #require(await reopened.mailbox(for: "grace@example.com").last?.link)
    let again = try await next.signIn(email: "grace@example.com", link: second)
    #expect(again.user.uid == signedIn.user.uid && !again.isNewUser)
    await next.shutdown()
  }

  @Test func accountDisabledByAnAdminEndsTheSessionAtTheNextRefresh() async throws {
    let backend = try EmbeddedBackend(directory: nil, configuration: EmbeddedTestBackend.fast)
    let auth = Auth(
      backend: backend, store: InMemorySessionStore(), clock: ManualClock(),
      configuration: AuthConfiguration(refreshesAutomatically: false))
    let user = try await auth.signUp(email: "ada@example.com", password: "secret1")
    try await backend.setDisabled(true, uid: user.user.uid)
    let error = await #expect(throws: AuthError.self) { try await auth.idToken(forceRefresh: true) }
    #expect(error?.code == .userDisabled)
    #expect(await shownState(auth) == .signedOut(.userDisabled))
    await auth.shutdown()
  }
}

/// What the UI store shows for `auth` now.
@UIStateActor func shownState(_ auth: Auth) -> AuthState { auth.stateStore.state }
