/// The platform a reCAPTCHA Enterprise key belongs to, as Firebase names it (`clientType`).
///
/// - Concurrency: `Sendable` value.
public struct RecaptchaClientType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public var description: String { rawValue }

  public static let ios = RecaptchaClientType(rawValue: "CLIENT_TYPE_IOS")
  public static let web = RecaptchaClientType(rawValue: "CLIENT_TYPE_WEB")
  public static let android = RecaptchaClientType(rawValue: "CLIENT_TYPE_ANDROID")
}
