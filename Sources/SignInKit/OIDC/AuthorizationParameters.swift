/// What an app adds to the issuer's authorization request (OpenID Connect Core §3.1.2.1): who
/// is expected to sign in, which Google Workspace domain, whether to ask again, and any other
/// parameter the issuer documents.
///
/// ```swift
/// var google = OpenIDConnectProvider.Configuration.google(clientID: clientID)
/// google.authorizationParameters = AuthorizationParameters(
///   loginHint: "ada@example.com", hostedDomain: "example.com", prompt: [.selectAccount])
/// ```
///
/// The parameters SignInKit sets for every request (``reserved``: `state`, `nonce`, the PKCE
/// challenge, the redirect URI…) cannot be given: the sign-in then fails at once with
/// ``AuthError/Code/misconfigured`` naming the parameter, before anything is shown.
///
/// - Concurrency: `Sendable` value.
public struct AuthorizationParameters: Sendable, Equatable {
  /// One value of `prompt`.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Prompt: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Show nothing: fail unless the person is signed in at the issuer and consented already.
    public static let none = Prompt(rawValue: "none")
    /// Ask for the password again, even with a session at the issuer.
    public static let login = Prompt(rawValue: "login")
    /// Ask for consent again (Google then returns a new refresh token).
    public static let consent = Prompt(rawValue: "consent")
    /// Let the person choose among their accounts.
    public static let selectAccount = Prompt(rawValue: "select_account")
  }

  /// The account expected to sign in, usually its email (`login_hint`).
  public var loginHint: String?
  /// The Google Workspace domain the account must belong to (Google's `hd`). Google only
  /// narrows the chooser with it: the backend must still check the ID token's `hd` claim.
  public var hostedDomain: String?
  /// How the issuer should ask (`prompt`, space-separated).
  public var prompt: [Prompt]
  /// Other parameters the issuer documents (`access_type`, `include_granted_scopes`, `ui_locales`…),
  /// sent after the ones above in name order.
  public var additional: [String: String]

  public init(
    loginHint: String? = nil, hostedDomain: String? = nil, prompt: [Prompt] = [], additional: [String: String] = [:]
  ) {
    self.loginHint = loginHint
    self.hostedDomain = hostedDomain
    self.prompt = prompt
    self.additional = additional
  }

  /// The parameters SignInKit sets itself on every authorization request.
  public static let reserved: Set<String> = [
    "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
    "code_challenge_method", "code_verifier", "client_secret", "request", "request_uri", "response_mode",
  ]

  /// The query fields, in order.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` when ``additional`` names a reserved parameter
  ///   (or `login_hint`, `hd` or `prompt`, which have their own properties).
  func fields() throws -> [(String, String)] {
    let owned: Set<String> = ["login_hint", "hd", "prompt"]
    if let name = additional.keys.sorted().first(where: { Self.reserved.contains($0.lowercased()) }) {
      throw AuthError(
        .misconfigured,
        "The authorization parameter \(name) is set by SignInKit for every sign-in; remove it from "
          + "AuthorizationParameters.additional (scopes go in the configuration's scopes).")
    }
    if let name = additional.keys.sorted().first(where: { owned.contains($0.lowercased()) }) {
      throw AuthError(
        .misconfigured,
        "Set \(name) with AuthorizationParameters' own property (loginHint, hostedDomain or prompt), not in "
          + "additional.")
    }
    var fields: [(String, String)] = []
    if let loginHint { fields.append(("login_hint", loginHint)) }
    if let hostedDomain { fields.append(("hd", hostedDomain)) }
    if !prompt.isEmpty { fields.append(("prompt", prompt.map(\.rawValue).joined(separator: " "))) }
    return fields + additional.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }
}
