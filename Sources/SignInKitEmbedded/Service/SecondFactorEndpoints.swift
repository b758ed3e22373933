import Foundation
import SignInKit
import SignInWire

/// Identity Platform's v2 second-factor calls, for TOTP and SMS factors alike: each body says by
/// which of its fields is set (`totpEnrollmentInfo`, `phoneEnrollmentInfo`…) which kind it is.
/// The texted codes are listed by `/emulator/v1/projects/P/verificationCodes`, as the emulator
/// lists them.
enum SecondFactorEndpoints {
  static func startEnrollment(_ body: StartMfaEnrollmentBody, _ context: ServiceContext) async throws
    -> StartMfaEnrollmentReply
  {
    let backend = try await context.backend()
    let idToken = try body.required(body.idToken, .missingIdToken)
    var reply = StartMfaEnrollmentReply()
    if let phone = body.phoneEnrollmentInfo {
      try await RecaptchaGate.check(phone.recaptcha, for: .phone, action: .mfaSmsEnrollment, context)
      if let receipt = phone.iosReceipt {
        try context.projects.pushes.redeem(receipt: receipt, secret: phone.iosSecret)
      }
      let number = phone.phoneNumber
      let sessionInfo = try await backend.run {
        try await $0.phone.startPhoneEnrollment(idToken: idToken, phoneNumber: number)
      }
      reply.phoneSessionInfo = SessionInfoReply(sessionInfo: sessionInfo)
      return reply
    }
    guard body.totpEnrollmentInfo != nil else {
      throw FirebaseFailure(.invalidArgument, "send phoneEnrollmentInfo or totpEnrollmentInfo")
    }
    guard
      case .secret(let secret) = try await backend.run({
        try await $0.secondFactors.secondFactor(.startTOTPEnrollment(idToken: idToken))
      })
    else {
      throw FirebaseFailure(.internalError, "the TOTP enrollment made no secret")
    }
    var info = TOTPSessionInfo()
    info.sharedSecretKey = secret.secretKey
    info.verificationCodeLength = Double(secret.codeLength)
    info.hashingAlgorithm = secret.hashingAlgorithm
    info.periodSec = Double(secret.codeInterval.components.seconds)
    info.sessionInfo = secret.sessionInfo
    info.finalizeEnrollmentTime = secret.enrollmentDeadline?.formatted(.iso8601)
    reply.totpSessionInfo = info
    return reply
  }

  static func finalizeEnrollment(_ body: FinalizeMfaEnrollmentBody, _ context: ServiceContext) async throws
    -> SignInReply
  {
    let backend = try await context.backend()
    let idToken = try body.required(body.idToken, .missingIdToken)
    if let phone = body.phoneVerificationInfo {
      let name = body.displayName
      return ReplyShapes.tokens(
        try await backend.run {
          try $0.phone.finalizePhoneEnrollment(
            idToken: idToken, sessionInfo: phone.sessionInfo, code: phone.code, displayName: name)
        })
    }
    guard let totp = body.totpVerificationInfo else {
      throw FirebaseFailure(.invalidArgument, "send phoneVerificationInfo or totpVerificationInfo")
    }
    return try await tokens(
      of: .finalizeTOTPEnrollment(
        idToken: idToken, sessionInfo: try totp.required(totp.sessionInfo, .missingSessionInfo),
        code: try totp.required(totp.verificationCode, .missingCode), displayName: body.displayName),
      on: backend)
  }

  static func withdraw(_ body: WithdrawMfaBody, _ context: ServiceContext) async throws -> SignInReply {
    try await tokens(
      of: .withdraw(
        idToken: try body.required(body.idToken, .missingIdToken),
        enrollmentID: try body.required(body.mfaEnrollmentId, .missingMfaEnrollmentId)),
      on: try await context.backend())
  }

  static func startSignIn(_ body: StartMfaSignInBody, _ context: ServiceContext) async throws -> StartMfaSignInReply {
    guard let phone = body.phoneSignInInfo else {
      throw FirebaseFailure(.invalidArgument, "send phoneSignInInfo: only SMS factors send a code to start with")
    }
    try await RecaptchaGate.check(phone.recaptcha, for: .phone, action: .mfaSmsSignIn, context)
    if let receipt = phone.iosReceipt { try context.projects.pushes.redeem(receipt: receipt, secret: phone.iosSecret) }
    let pending = try body.required(body.mfaPendingCredential, .missingMfaPendingCredential)
    let enrollmentID = try body.required(body.mfaEnrollmentId, .missingMfaEnrollmentId)
    let sessionInfo = try await context.backend().run {
      try await $0.phone.startPhoneSecondFactor(pendingCredential: pending, enrollmentID: enrollmentID)
    }
    var reply = StartMfaSignInReply()
    reply.phoneResponseInfo = SessionInfoReply(sessionInfo: sessionInfo)
    return reply
  }

  static func finalizeSignIn(_ body: FinalizeMfaSignInBody, _ context: ServiceContext) async throws -> SignInReply {
    let backend = try await context.backend()
    let pending = try body.required(body.mfaPendingCredential, .missingMfaPendingCredential)
    if let phone = body.phoneVerificationInfo {
      let enrollmentID = body.mfaEnrollmentId
      let (tokens, _) = try await backend.run {
        try $0.phone.finalizePhoneSecondFactor(
          pendingCredential: pending, enrollmentID: enrollmentID, sessionInfo: phone.sessionInfo, code: phone.code)
      }
      return ReplyShapes.tokens(tokens)
    }
    let totp = body.totpVerificationInfo ?? TOTPSignInInfo()
    return try await tokens(
      of: .finalizeTOTPSignIn(
        pendingCredential: pending, enrollmentID: try body.required(body.mfaEnrollmentId, .missingMfaEnrollmentId),
        code: try totp.required(totp.verificationCode, .missingCode)),
      on: backend)
  }

  /// The tokens `request` answers with.
  private static func tokens(of request: SecondFactorRequest, on backend: EmbeddedBackend) async throws
    -> SignInReply
  {
    guard case .tokens(let tokens, _) = try await backend.run({ try await $0.secondFactors.secondFactor(request) })
    else {
      throw FirebaseFailure(.internalError, "the second-factor call made no tokens")
    }
    return ReplyShapes.tokens(tokens)
  }
}
