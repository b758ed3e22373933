/// `accounts:verifyIosClient` (v3 `verifyClient`): the app's APNs device token, so that the
/// server can send a silent push proving the app before it texts a code.
///
/// - Concurrency: `Sendable` value; its description never contains the token.
package struct VerifyIosClientBody: WireBody, CustomStringConvertible {
  /// The APNs device token, hex.
  package var appToken: String?
  /// Whether the token is for APNs' sandbox (a development build).
  package var isSandbox: Bool?

  package init(appToken: String? = nil, isSandbox: Bool? = nil) {
    self.appToken = appToken
    self.isSandbox = isSandbox
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case appToken, isSandbox
  }

  package var description: String { "VerifyIosClientBody(sandbox: \(isSandbox ?? false), token redacted)" }
}

/// `accounts:verifyIosClient`: the receipt the silent push will carry, and how long (seconds,
/// as a string) to wait for it before falling back to reCAPTCHA.
///
/// - Concurrency: `Sendable` value.
package struct VerifyIosClientReply: WireBody, LenientValue {
  @Lenient package var receipt: String?
  @Lenient package var suggestedTimeout: String?

  package init(receipt: String? = nil, suggestedTimeout: String? = nil) {
    self.receipt = receipt
    self.suggestedTimeout = suggestedTimeout
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case receipt, suggestedTimeout
  }
}
