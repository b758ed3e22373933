/// Identity Toolkit v2 `accounts/mfaEnrollment:start`: the TOTP secret to show, or the session of
/// the code texted to the phone.
///
/// - Concurrency: `Sendable` value.
package struct StartMfaEnrollmentReply: WireBody, LenientValue {
  @Lenient package var phoneSessionInfo: SessionInfoReply?
  @Lenient package var totpSessionInfo: TOTPSessionInfo?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case phoneSessionInfo, totpSessionInfo
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + TOTPSessionInfo.fieldNames + SessionInfoReply.fieldNames
  }
}

/// Identity Toolkit v2 `accounts/mfaSignIn:start`: the session of the code texted to the
/// enrolled phone.
///
/// - Concurrency: `Sendable` value.
package struct StartMfaSignInReply: WireBody, LenientValue {
  @Lenient package var phoneResponseInfo: SessionInfoReply?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case phoneResponseInfo
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + SessionInfoReply.fieldNames }
}

/// The session a texted code belongs to (`sendVerificationCode`'s reply, `phoneSessionInfo`,
/// `phoneResponseInfo`): what the code is sent back with.
///
/// - Concurrency: `Sendable` value.
package struct SessionInfoReply: WireBody, LenientValue {
  @Lenient package var sessionInfo: String?

  package init(sessionInfo: String? = nil) { self.sessionInfo = sessionInfo }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case sessionInfo
  }
}
