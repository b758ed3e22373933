import Foundation
import SignInCrypto
import SignInFoundation

/// A device authorization (RFC 8628 §3.2): the code the user types at the verification URL on
/// another device, and how the client polls until they have.
///
/// - Concurrency: `Sendable` value; its description never shows the device code.
public struct DeviceAuthorization: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var deviceCode: String
  public var userCode: String
  public var verificationURI: URL
  /// The verification URL with the user code filled in, when the issuer gives one.
  public var verificationURIComplete: URL?
  public var expiresIn: Duration
  /// The wait between polls; 5 s when the issuer does not say.
  public var interval: Duration

  public init(
    deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL? = nil,
    expiresIn: Duration, interval: Duration = .seconds(5)
  ) {
    self.deviceCode = deviceCode
    self.userCode = userCode
    self.verificationURI = verificationURI
    self.verificationURIComplete = verificationURIComplete
    self.expiresIn = expiresIn
    self.interval = interval
  }

  public var description: String { "DeviceAuthorization(userCode: \(userCode), at: \(verificationURI))" }
  /// The user code is meant to be shown; the device code is the secret.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "userCode": userCode, "verificationURI": verificationURI, "expiresIn": expiresIn, "interval": interval,
      ])
  }
}

extension OIDCClient {
  static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

  /// Starts a device authorization at `endpoint` (default: the issuer's
  /// `device_authorization_endpoint`).
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` when the issuer has no device endpoint and
  ///   none is given.
  public func startDeviceAuthorization(scopes: [String], endpoint: URL? = nil) async throws -> DeviceAuthorization {
    guard let endpoint = endpoint ?? metadata.deviceAuthorizationEndpoint else {
      throw AuthError(
        .misconfigured,
        "The issuer \(metadata.issuer) publishes no device authorization endpoint. Give one, or use the browser flow.")
    }
    let response = try await transport.send(
      authenticatedForm(endpoint, [("scope", scopes.joined(separator: " "))]))
    guard response.status == 200 else { throw Self.oauthError(response, during: "device authorization") }
    guard let fields = try? JSONDecoder().decode([String: JSONValue].self, from: response.body) else {
      throw AuthError(.invalidResponse, "The device authorization reply could not be read. Try again.")
    }
    let reply = JSONReply(fields)
    // Google spells it verification_url; RFC 8628 verification_uri.
    guard let deviceCode = reply.string("device_code"), let userCode = reply.string("user_code"),
      let verification = (reply.string("verification_uri") ?? reply.string("verification_url")).flatMap(
        URL.init(string:))
    else {
      throw AuthError(
        .invalidResponse, "The device authorization reply lacks device_code, user_code or verification_uri.")
    }
    return DeviceAuthorization(
      deviceCode: deviceCode, userCode: userCode, verificationURI: verification,
      verificationURIComplete: reply.string("verification_uri_complete").flatMap(URL.init(string:)),
      expiresIn: try reply.duration("expires_in", in: "device authorization", within: 1...(24 * 3600)) ?? .seconds(600),
      // RFC 8628 §3.5: 5 s when not given; never polled faster than once a second.
      interval: max(
        .seconds(1), try reply.duration("interval", in: "device authorization", within: 0...3600) ?? .seconds(5)))
  }

  /// Polls the token endpoint until the user approves (RFC 8628 §3.4–3.5): waits `interval`
  /// (at least 1 s) before each poll, keeps waiting on `authorization_pending`, adds 5 s to the
  /// interval on `slow_down`, and stops on `access_denied`, `expired_token` or when `expiresIn`
  /// has passed.
  ///
  /// A transient failure while polling (no connection, a timeout, a 5xx or an HTML error page)
  /// does not end the sign-in: the interval doubles, up to a minute, and polling goes on until
  /// `expiresIn`, as §3.5 asks of a client whose connection times out.
  ///
  /// - Cancellation: stops polling and throws ``AuthError/Code/cancelled``.
  public func pollDeviceToken(_ authorization: DeviceAuthorization, clock: any Clock<Duration>) async throws
    -> OAuthTokens
  {
    var interval = max(.seconds(1), authorization.interval)
    var waited: Duration = .zero
    while true {
      do {
        try await clock.sleep(for: interval)
      } catch {
        throw AuthError(.cancelled, "Sign-in was cancelled while waiting for approval.")
      }
      waited += interval
      let response: HTTPResponse
      do {
        response = try await transport.send(
          authenticatedForm(
            metadata.tokenEndpoint,
            [("grant_type", Self.deviceCodeGrant), ("device_code", authorization.deviceCode)]))
      } catch let error as AuthError where error.isTransient {
        if Task.isCancelled { throw AuthError(.cancelled, "Sign-in was cancelled while waiting for approval.") }
        interval = Self.backedOff(interval)
        try Self.checkTimeLeft(waited, authorization, lastError: error)
        continue
      }
      if response.status == 200 { return try Self.tokens(from: response) }
      switch Self.errorCode(of: response) {
      case "authorization_pending"?:
        break
      case "slow_down"?:
        interval += .seconds(5)
      case nil where response.status >= 500 || response.status == 429:
        interval = Self.backedOff(interval)
      default:
        throw Self.oauthError(response, during: "device sign-in")
      }
      try Self.checkTimeLeft(waited, authorization, lastError: nil)
    }
  }

  private static func backedOff(_ interval: Duration) -> Duration { min(interval * 2, .seconds(60)) }

  private static func checkTimeLeft(_ waited: Duration, _ authorization: DeviceAuthorization, lastError: AuthError?)
    throws
  {
    guard waited >= authorization.expiresIn else { return }
    let cause = lastError.map { " The last poll failed: \($0.message)" } ?? ""
    throw AuthError(.timeout, "The sign-in code expired before it was approved. Start again.\(cause)")
  }
}
