import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInFoundation
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Items 7 to 11 of the third hardening: credentials replaced only under the recent-login rule,
/// pre-hijacking undone by an email link, claims the server owns, custom tokens from the future,
/// and emailed links that lead only to authorized domains.
@Suite struct AccountTakeoverTests {
  let clock = TestDate()
  let backend: EmbeddedBackend

  init() throws {
    backend = try EmbeddedTestBackend.backend(clock: clock)
  }

  func refusal(_ work: () async throws -> Void) async -> String? {
    await EmbeddedBackendCustomTokenTests.refusal(work)
  }

  // MARK: Item 7: signUp with an ID token

  @Test func replacingAnEmailAndPasswordThroughSignUpNeedsARecentSignIn() async throws {
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    clock.advance(10 * 60)
    let refused = await refusal {
      _ = try await backend.signUp(
        SignUpRequest(email: "mallory@example.com", password: "mallory's", idToken: session.tokens.idToken))
    }
    #expect(refused == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    // Nothing changed: the owner's password still works, the thief's email is not on it.
    let again = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
    #expect(again.localID == session.localID)
  }

  @Test func replacingThemRecentlyRevokesTheAccountsOtherSessions() async throws {
    let other = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    clock.advance(1)
    let recent = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
    let changed = try await backend.signUp(
      SignUpRequest(email: "ada@example.org", password: "new horse", idToken: recent.tokens.idToken))
    #expect(changed.localID == other.localID)
    #expect(
      await refusal { _ = try await backend.refresh(RefreshTokenRequest(refreshToken: other.tokens.refreshToken)) }
        == "INVALID_REFRESH_TOKEN")
    _ = try await backend.refresh(RefreshTokenRequest(refreshToken: changed.tokens.refreshToken))
  }

  @Test func linkingAnEmailToAnAnonymousAccountNeedsNoRecentSignIn() async throws {
    let anonymous = try await backend.signUp(SignUpRequest())
    clock.advance(24 * 3600)
    let refreshed = try await backend.refresh(RefreshTokenRequest(refreshToken: anonymous.tokens.refreshToken))
    let linked = try await backend.signUp(
      SignUpRequest(email: "ada@example.com", password: "correct horse", idToken: refreshed.tokens.idToken))
    #expect(linked.localID == anonymous.localID)
  }

  // MARK: Item 8: pre-hijacking

  @Test func anEmailLinkTakesAnUnverifiedAccountBackFromWhoeverSetItsPassword() async throws {
    // The attacker signs up with the victim's address first, and keeps a session.
    let attacker = try await backend.signUp(SignUpRequest(email: "victim@example.com", password: "attacker's"))
    clock.advance(1)
    // The victim signs in with an emailed link: it proves the address.
    _ = try await backend.sendOobCode(
      .emailSignIn(email: "victim@example.com"),
      settings: ActionCodeSettings(continueURL: URL(string: "https://example.com/done"), handlesCodeInApp: true))
    let code = try #require(await backend.mailbox(for: "victim@example.com").last?.code)
    let victim = try await backend.signInWithEmailLink(
      EmailLinkSignInRequest(email: "victim@example.com", oobCode: code))
    #expect(victim.localID == attacker.localID, "the account of the address, as Firebase does")
    // The attacker's password and session are gone.
    #expect(
      await refusal {
        _ = try await backend.signInWithPassword(
          PasswordSignInRequest(email: "victim@example.com", password: "attacker's"))
      } != nil)
    #expect(
      await refusal { _ = try await backend.refresh(RefreshTokenRequest(refreshToken: attacker.tokens.refreshToken)) }
        == "INVALID_REFRESH_TOKEN")
    _ = try await backend.lookup(LookupRequest(idToken: victim.tokens.idToken))
  }

  /// Review N7: what the attacker linked before the owner proved the address (here a phone
  /// number) no longer signs in to the owner's account.
  @Test func anEmailLinkAlsoUndoesWhatTheHijackerLinked() async throws {
    let attacker = try await backend.signUp(SignUpRequest(email: "victim@example.com", password: "attacker's"))
    let sent = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550199"))
    let code = try #require(await backend.verificationCodes().first { $0.sessionInfo == sent.verificationID }?.code)
    _ = try await backend.signInWithPhoneNumber(
      PhoneSignInRequest(verificationID: sent.verificationID, code: code, idToken: attacker.tokens.idToken))
    clock.advance(1)
    _ = try await backend.sendOobCode(
      .emailSignIn(email: "victim@example.com"),
      settings: ActionCodeSettings(continueURL: URL(string: "https://example.com/done"), handlesCodeInApp: true))
    let link = try #require(await backend.mailbox(for: "victim@example.com").last?.code)
    let victim = try await backend.signInWithEmailLink(
      EmailLinkSignInRequest(email: "victim@example.com", oobCode: link))
    #expect(try await backend.storedAccount(uid: victim.localID)?.phoneNumber == nil)
    // The attacker's number now signs in to an account of its own, not the owner's.
    let again = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550199"))
    let second = try #require(await backend.verificationCodes().first { $0.sessionInfo == again.verificationID }?.code)
    let viaPhone = try await backend.signInWithPhoneNumber(
      PhoneSignInRequest(verificationID: again.verificationID, code: second))
    #expect(viaPhone.localID != victim.localID)
  }

  @Test func aVerifiedAccountKeepsItsPasswordAfterAnEmailLink() async throws {
    let owner = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    _ = try await backend.sendOobCode(.verifyEmail(idToken: owner.tokens.idToken), settings: nil)
    _ = try await backend.update(
      UpdateAccountRequest(oobCode: try #require(await backend.mailbox(for: "ada@example.com").last?.code)))
    _ = try await backend.sendOobCode(
      .emailSignIn(email: "ada@example.com"),
      settings: ActionCodeSettings(continueURL: URL(string: "https://example.com/done"), handlesCodeInApp: true))
    let code = try #require(await backend.mailbox(for: "ada@example.com").last?.code)
    _ = try await backend.signInWithEmailLink(EmailLinkSignInRequest(email: "ada@example.com", oobCode: code))
    _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
  }

  // MARK: Item 9: claims the server owns

  @Test(arguments: ["user_id", "email", "email_verified", "provider_id", "name", "picture", "phone_number", "sub"])
  func aClaimTheServerPutsInTokensCannotBeSet(_ name: String) async throws {
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    var changes = AdminAccountChanges()
    changes.customAttributes = #"{"\#(name)":"someone-else"}"#
    let update = changes
    #expect(
      await refusal { _ = try await backend.administering({ try $0.adminUpdate(uid: session.localID, update) }) }
        == "FORBIDDEN_CLAIM : \(name)")

    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedCustomTokens = true
    let emulated = try EmbeddedTestBackend.backend(configuration, clock: clock)
    let token = #"{"uid":"u1","claims":{"\#(name)":"someone-else"}}"#
    #expect(
      await refusal { _ = try await emulated.signInWithCustomToken(CustomTokenSignInRequest(token: token)) }
        == "FORBIDDEN_CLAIM : \(name)")
  }

  @Test func claimsStoredBeforeANameWasReservedNeverOverrideTheServers() async throws {
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    var account = try #require(try await backend.storedAccount(uid: session.localID))
    account.customClaims = ["user_id": .string("someone-else"), "role": .string("editor")]
    try await backend.putStoredAccount(account)
    let refreshed = try await backend.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
    let claims = try JSONWebToken(decoding: refreshed.tokens.idToken).claims
    #expect(claims["user_id"] == .string(session.localID))
    #expect(claims["role"] == .string("editor"))
  }

  // MARK: Item 10: custom tokens from the future

  @Test func aCustomTokenIssuedInTheFutureIsRefused() async throws {
    let custom = EmbeddedBackendCustomTokenTests()
    let backend = try custom.backend()
    let now = custom.clock.now.timeIntervalSince1970
    let future: [String: JSONValue] = [
      "iss": .string(EmbeddedBackendCustomTokenTests.email), "sub": .string(EmbeddedBackendCustomTokenTests.email),
      "aud": .string(EmbeddedBackend.customTokenAudience), "uid": .string("u1"),
      "iat": .number(now + 3000), "exp": .number(now + 3000 + 3600),
    ]
    let token = try JSONWebToken.signed(claims: future, key: EmbeddedBackendCustomTokenTests.key, kid: "k1")
    let refused = await refusal { _ = try await backend.signInWithCustomToken(CustomTokenSignInRequest(token: token)) }
    #expect(refused?.hasPrefix("INVALID_CUSTOM_TOKEN : iat is in the future") == true)
    // A signing server a few seconds ahead is fine.
    var slightly = future
    slightly["iat"] = .number(now + 30)
    slightly["exp"] = .number(now + 30 + 3600)
    _ = try await backend.signInWithCustomToken(
      CustomTokenSignInRequest(
        token: try JSONWebToken.signed(claims: slightly, key: EmbeddedBackendCustomTokenTests.key, kid: "k1")))
  }

  // MARK: Item 11: where emailed links lead

  @Test(arguments: [
    ("https://attacker.example/steal", nil as String?, "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project"),
    ("javascript:alert(1)", nil, "INVALID_CONTINUE_URI"),
    ("ftp://example.com/x", nil, "INVALID_CONTINUE_URI"),
    ("https://example.com/done", "attacker.example", "INVALID_HOSTING_LINK_DOMAIN"),
  ])
  func aSignInLinkCannotLeadAwayFromTheProject(_ continueURL: String, _ linkDomain: String?, _ refusal: String)
    async throws
  {
    let settings = ActionCodeSettings(
      continueURL: URL(string: continueURL), handlesCodeInApp: true, linkDomain: linkDomain)
    #expect(
      await self.refusal {
        _ = try await backend.sendOobCode(.emailSignIn(email: "victim@example.com"), settings: settings)
      }
        == refusal)
    #expect(await backend.mailbox().isEmpty, "nothing was sent")
  }

  @Test(arguments: [
    "http://localhost:5173/finish", "http://127.0.0.1/x", "https://signinkit-local.firebaseapp.com/__/auth",
    "https://example.com/done",
  ])
  func aLinkToAnAuthorizedDomainIsSent(_ continueURL: String) async throws {
    let settings = ActionCodeSettings(continueURL: URL(string: continueURL), handlesCodeInApp: true)
    _ = try await backend.sendOobCode(.emailSignIn(email: "ada@example.com"), settings: settings)
    #expect(await backend.mailbox(for: "ada@example.com").count == 1)
  }
}
