import SignInConcurrency
import SignInKit

/// reCAPTCHA Enterprise tokens that `signin serve` and ``EmbeddedBackend`` accept, and Google
/// does not: for tests and the `signin` REPL, where a project enforces reCAPTCHA and no browser
/// or device can solve one. A token names the site key and the action it was made for, and the
/// backends refuse it for another call, as Firebase refuses a real token made for another action.
///
/// ```swift
/// var configuration = EmbeddedBackend.Configuration()
/// configuration.recaptcha = TestRecaptchaTokenProvider()
/// ```
///
/// - Concurrency: `Sendable` value; ``asked`` is read and written under a lock.
public struct TestRecaptchaTokenProvider: RecaptchaTokenProvider {
  public let clientType: RecaptchaClientType
  private let log = Locked<[RecaptchaAction]>([])

  public init(clientType: RecaptchaClientType = .ios) {
    self.clientType = clientType
  }

  /// The actions tokens were asked for, oldest first.
  public var asked: [RecaptchaAction] { log.withLock { $0 } }

  public func token(for action: RecaptchaAction, siteKey: String) async throws -> String {
    log.withLock { $0.append(action) }
    return Self.token(siteKey: siteKey, action: action.rawValue)
  }

  /// What a token starts with.
  package static let prefix = "signin-test-recaptcha"

  /// The token for `action` made with `siteKey`.
  package static func token(siteKey: String, action: String) -> String {
    "\(prefix):\(siteKey):\(action)"
  }
}
