/// The reCAPTCHA Enterprise fields of a call Firebase protects: the token, the client type whose
/// key made it (`CLIENT_TYPE_IOS`…), and `recaptchaVersion` (`RECAPTCHA_ENTERPRISE`).
///
/// - Concurrency: `Sendable` value.
package struct RecaptchaAnswer: Sendable, Equatable {
  /// The only version this client sends.
  package static let enterprise = "RECAPTCHA_ENTERPRISE"

  package var token: String?
  package var clientType: String?
  package var version: String?

  package init(token: String? = nil, clientType: String? = nil, version: String? = nil) {
    self.token = token
    self.clientType = clientType
    self.version = version
  }
}

/// A body that can carry a reCAPTCHA Enterprise answer (`accounts:sendOobCode` names its token
/// `captchaResp`, and maps it to ``captchaResponse``): the client fills it in and the service
/// reads it through ``recaptcha``, so neither spells the fields per call.
package protocol RecaptchaCarrying: WireBody {
  var captchaResponse: String? { get set }
  var clientType: String? { get set }
  var recaptchaVersion: String? { get set }
}

extension RecaptchaCarrying {
  package var recaptcha: RecaptchaAnswer {
    get { RecaptchaAnswer(token: captchaResponse, clientType: clientType, version: recaptchaVersion) }
    set { (captchaResponse, clientType, recaptchaVersion) = (newValue.token, newValue.clientType, newValue.version) }
  }

  /// This body with `answer`'s fields, when there is one.
  package func answering(_ answer: RecaptchaAnswer?) -> Self {
    guard let answer else { return self }
    var answered = self
    answered.recaptcha = answer
    return answered
  }
}
