import Foundation
import SignInCrypto
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// SMS second factors on every backend: enrolment, a sign-in that waits for the texted code, the
/// resolver showing each factor's kind and masked number beside a TOTP factor, and withdrawal.
@Suite(.timeLimit(.minutes(3)))
struct AuthSMSSecondFactorTests {
  static let phone = "+15555550123"

  /// A verified user with the SMS factor "Work phone" on ``phone``.
  static func enrolledUser(_ harness: Harness) async throws -> User {
    _ = try await AuthSecondFactorTests.verifiedUser(harness)
    let verification = try await harness.auth.startPhoneEnrollment(phoneNumber: phone)
    #expect(verification.purpose == .secondFactorEnrollment)
    let code = try #require(await harness.controls.textedCode(for: verification.verificationID))
    return try await harness.auth.finishPhoneEnrollment(verification, code: code, displayName: "Work phone")
  }

  /// Signs out and in again with the password, and returns the challenge the sign-in threw.
  static func challenge(_ harness: Harness) async throws -> SecondFactorChallenge {
    try await harness.auth.signOut()
    let error = try #require(
      await #expect(throws: AuthError.self) {
        try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
      })
    #expect(error.code == .secondFactorRequired)
    return try #require(error.secondFactor)
  }

  @Test(arguments: BackendKind.allCases)
  func anEnrolledPhoneIsListedMaskedAndStoredWithTheSession(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let user = try await Self.enrolledUser(harness)
    let factor = try #require(user.secondFactors.first)
    #expect(user.secondFactors.count == 1)
    #expect(factor.kind == .phone && factor.displayName == "Work phone")
    #expect(factor.phoneNumber == "+*******0123", "the factor's number is masked")
    #expect(user.phoneNumber == nil, "a second factor is not a sign-in number")
    #expect(try harness.store.load()?.user.secondFactors == user.secondFactors)
  }

  @Test(arguments: BackendKind.allCases)
  func enrollingNeedsAVerifiedEmailAndAnE164Number(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    let unverified = await #expect(throws: AuthError.self) {
      try await harness.auth.startPhoneEnrollment(phoneNumber: Self.phone)
    }
    #expect(unverified?.code == .unverifiedEmail)
    let badNumber = await #expect(throws: AuthError.self) {
      try await harness.auth.startPhoneEnrollment(phoneNumber: "555-0123")
    }
    #expect(badNumber?.code == .invalidPhoneNumber)
  }

  @Test(arguments: BackendKind.allCases)
  func aWrongEnrolmentCodeCanBeRetyped(kind: BackendKind) async throws {
    let harness = Harness(kind)
    _ = try await AuthSecondFactorTests.verifiedUser(harness)
    let verification = try await harness.auth.startPhoneEnrollment(phoneNumber: Self.phone)
    let code = try #require(await harness.controls.textedCode(for: verification.verificationID))
    let wrong = await #expect(throws: AuthError.self) {
      try await harness.auth.finishPhoneEnrollment(verification, code: AuthPhoneNumberTests.wrong(code))
    }
    #expect(wrong?.code == .invalidVerificationCode)
    #expect(harness.auth.currentUser?.secondFactors.isEmpty == true)
    let user = try await harness.auth.finishPhoneEnrollment(verification, code: code)
    #expect(user.secondFactors.map(\.kind) == [.phone])
  }

  @Test(arguments: BackendKind.allCases)
  func aSignInWaitsForTheTextedCode(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let user = try await Self.enrolledUser(harness)
    let challenge = try await Self.challenge(harness)
    #expect(harness.auth.currentUser == nil)
    let factor = try #require(challenge.factors.first)
    #expect(factor.kind == .phone && factor.phoneNumber == "+*******0123")

    let verification = try await harness.auth.sendSecondFactorCode(for: challenge, enrollmentID: factor.enrollmentID)
    #expect(verification.phoneNumber == "+*******0123")
    #expect(verification.purpose == .secondFactorSignIn(enrollmentID: factor.enrollmentID))
    let code = try #require(await harness.controls.textedCode(for: verification.verificationID))
    let wrong = await #expect(throws: AuthError.self) {
      try await harness.auth.resolveSignIn(
        challenge, verification: verification, code: AuthPhoneNumberTests.wrong(code))
    }
    #expect(wrong?.code == .invalidVerificationCode)
    let result = try await harness.auth.resolveSignIn(challenge, verification: verification, code: code)
    #expect(result.user.uid == user.uid && result.providerID == .password)
    #expect(harness.auth.currentUser?.uid == user.uid)
  }

  @Test(arguments: BackendKind.allCases)
  func anEnrolmentCodeDoesNotFinishASignIn(kind: BackendKind) async throws {
    let harness = Harness(kind)
    _ = try await Self.enrolledUser(harness)
    let challenge = try await Self.challenge(harness)
    let enrollmentID = try #require(challenge.factors.first?.enrollmentID)
    let sent = try await harness.auth.sendSecondFactorCode(for: challenge, enrollmentID: enrollmentID)
    let code = try #require(await harness.controls.textedCode(for: sent.verificationID))
    var forged = sent
    forged.purpose = .secondFactorEnrollment
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.resolveSignIn(challenge, verification: forged, code: code)
    }
    #expect(error?.code == .invalidVerificationCode)
    #expect(harness.auth.currentUser == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func totpAndSMSFactorsAreOfferedSideBySide(kind: BackendKind) async throws {
    let harness = Harness(kind)
    _ = try await Self.enrolledUser(harness)
    let secret = try await harness.auth.startTOTPEnrollment()
    let user = try await harness.auth.finishTOTPEnrollment(
      secret, code: try AuthSecondFactorTests.code(secret, harness), displayName: "Authenticator")
    #expect(user.secondFactors.map(\.kind) == [.phone, .totp])

    let challenge = try await Self.challenge(harness)
    #expect(challenge.factors.map(\.kind) == [.phone, .totp])
    #expect(challenge.factors.map(\.phoneNumber) == ["+*******0123", nil])
    #expect(challenge.factors.map(\.displayName) == ["Work phone", "Authenticator"])
    // Either one finishes the sign-in; here the authenticator app.
    harness.clock.advance(by: .seconds(30))
    let totp = try #require(challenge.factors.last)
    let result = try await harness.auth.resolveSignIn(
      challenge, enrollmentID: totp.enrollmentID, code: try AuthSecondFactorTests.code(secret, harness))
    #expect(result.user.uid == user.uid)
  }

  @Test(arguments: BackendKind.allCases)
  func aWithdrawnPhoneIsNoLongerAskedFor(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let enrolled = try await Self.enrolledUser(harness)
    let enrollmentID = try #require(enrolled.secondFactors.first?.enrollmentID)
    let user = try await harness.auth.unenrollSecondFactor(enrollmentID)
    #expect(user.secondFactors.isEmpty)
    try await harness.auth.signOut()
    let result = try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
    #expect(result.user.uid == enrolled.uid)
  }
}
