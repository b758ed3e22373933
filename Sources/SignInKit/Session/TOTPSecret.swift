import Foundation

/// The shared secret of a TOTP enrollment in progress (FirebaseAuth's `TOTPSecret`): shown to
/// the user as a QR code (``otpauthURI(accountName:issuer:)``) or as text, then passed back
/// with the first code their app shows to ``Auth/finishTOTPEnrollment(_:code:displayName:)``.
///
/// Its `description` never shows the secret.
///
/// - Concurrency: `Sendable` value.
public struct TOTPSecret: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// The secret, base32 without padding, as authenticator apps take it typed in.
  public var secretKey: String
  /// Digits per code (6 by default).
  public var codeLength: Int
  /// How long each code lasts (30 seconds by default).
  public var codeInterval: Duration
  /// The HMAC the codes use (`HMAC_SHA1`).
  public var hashingAlgorithm: String
  /// When the enrollment must be finished by.
  public var enrollmentDeadline: Date?
  /// The backend's handle for this enrollment (`sessionInfo`).
  public var sessionInfo: String

  public init(
    secretKey: String, codeLength: Int = 6, codeInterval: Duration = .seconds(30),
    hashingAlgorithm: String = "HMAC_SHA1", enrollmentDeadline: Date? = nil, sessionInfo: String
  ) {
    self.secretKey = secretKey
    self.codeLength = codeLength
    self.codeInterval = codeInterval
    self.hashingAlgorithm = hashingAlgorithm
    self.enrollmentDeadline = enrollmentDeadline
    self.sessionInfo = sessionInfo
  }

  /// The `otpauth://totp/` URI an authenticator app scans (Google Authenticator's key URI
  /// format): label `issuer:accountName`, the secret, algorithm, digits and period.
  public func otpauthURI(accountName: String, issuer: String) -> URL {
    var components = URLComponents()
    components.scheme = "otpauth"
    components.host = "totp"
    components.path = "/\(issuer):\(accountName)"
    let algorithm = hashingAlgorithm.replacingOccurrences(of: "HMAC_", with: "")
    components.queryItems = [
      URLQueryItem(name: "secret", value: secretKey), URLQueryItem(name: "issuer", value: issuer),
      URLQueryItem(name: "algorithm", value: algorithm), URLQueryItem(name: "digits", value: String(codeLength)),
      URLQueryItem(name: "period", value: String(Int(codeInterval.components.seconds))),
    ]
    return components.url!
  }

  public var description: String { "TOTPSecret(\(codeLength) digits every \(codeInterval), secret hidden)" }
  public var customMirror: Mirror { Mirror(self, children: ["codeLength": codeLength]) }
}
