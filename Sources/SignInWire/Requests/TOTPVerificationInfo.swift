/// The one-time code of a TOTP second factor, and while enrolling the session it belongs to.
///
/// - Concurrency: `Sendable` value.
package struct TOTPVerificationInfo: WireBody {
  package var sessionInfo: String?
  package var verificationCode: String?

  package init(sessionInfo: String? = nil, verificationCode: String? = nil) {
    self.sessionInfo = sessionInfo
    self.verificationCode = verificationCode
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case sessionInfo, verificationCode
  }
}

/// The one-time code of a TOTP second factor that finishes a sign-in.
///
/// - Concurrency: `Sendable` value.
package struct TOTPSignInInfo: WireBody {
  package var verificationCode: String?

  package init(verificationCode: String? = nil) { self.verificationCode = verificationCode }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case verificationCode
  }
}
