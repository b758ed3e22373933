import SignInKit
import SignInWire

/// reCAPTCHA Enterprise as Identity Platform enforces it, from the project's settings
/// (``ProjectSettingsEndpoints``) and its tenants' (`recaptchaConfig`, which a tenant's own state
/// overrides per provider). Under `ENFORCE`, a protected call without a valid token is refused
/// before it does anything: no account is made, no email is sent, no code is texted. Under
/// `AUDIT` and `OFF`, every call goes through. An administrator's calls are never checked.
///
/// The valid tokens are ``TestRecaptchaTokenProvider``'s, made with the project's key for the
/// client's platform and for the call's action; Google's are not (no assessment is made here).
enum RecaptchaGate {
  /// Refuses `body` under `ENFORCE` for `provider` unless it carries a token for `action`.
  ///
  /// - Throws: `MISSING_RECAPTCHA_TOKEN`, `MISSING_RECAPTCHA_VERSION`, `MISSING_CLIENT_TYPE`,
  ///   `INVALID_RECAPTCHA_TOKEN`.
  static func check(
    _ answer: RecaptchaAnswer, for provider: RecaptchaProvider, action: RecaptchaAction, _ context: ServiceContext
  ) async throws {
    guard !context.isAdmin else { return }
    let settings = try await effective(context)
    guard settings.state(of: provider) == .enforce else { return }
    guard let token = answer.token, !token.isEmpty else { throw FirebaseFailure(.missingRecaptchaToken) }
    guard let version = answer.version else { throw FirebaseFailure(.missingRecaptchaVersion) }
    guard let clientType = answer.clientType else { throw FirebaseFailure(.missingClientType) }
    let key = key(in: settings, for: clientType, context)
    let expected = RecaptchaConfigReply.siteKey(of: key) ?? key
    guard version == RecaptchaAnswer.enterprise,
      token == TestRecaptchaTokenProvider.token(siteKey: expected, action: action.rawValue)
    else {
      throw FirebaseFailure(.invalidRecaptchaToken)
    }
  }

  /// `v2/recaptchaConfig`: each provider's state, and the key for the client's platform when
  /// one is on.
  static func reply(_ query: RecaptchaConfigQuery, _ context: ServiceContext) async throws -> RecaptchaConfigReply {
    let settings = try await effective(context)
    var reply = RecaptchaConfigReply()
    reply.recaptchaEnforcementState = RecaptchaProvider.allCases.map {
      RecaptchaConfigReply.EnforcementState(provider: $0, enforcementState: settings.state(of: $0))
    }
    if RecaptchaProvider.allCases.contains(where: { settings.state(of: $0) != .off }) {
      reply.recaptchaKey = key(in: settings, for: query.clientType ?? RecaptchaClientType.web.rawValue, context)
    }
    return reply
  }

  /// The states and keys that hold for the call: the tenant's where it sets them, else the
  /// project's, else `OFF`.
  private static func effective(_ context: ServiceContext) async throws -> Effective {
    let project = try await ProjectSettingsEndpoints.stored(in: context.project).recaptchaConfig
    let tenant = try await context.tenant()?.recaptchaConfig
    return Effective(tenant: tenant, project: project)
  }

  /// The key (`projects/P/keys/K`) for `clientType` (`CLIENT_TYPE_IOS` matches a key of type
  /// `IOS`): the settings' own, or else one named after the project, whose test tokens are
  /// accepted the same way.
  private static func key(in settings: Effective, for clientType: String, _ context: ServiceContext) -> String {
    settings.tenant?.key(for: clientType) ?? settings.project?.key(for: clientType)
      ?? "projects/\(context.project.configuration.projectID)/keys/signin-test-"
      + RecaptchaAdminConfig.Key.platform(ofClientType: clientType).lowercased()
  }

  /// A tenant's settings over its project's.
  private struct Effective {
    let tenant: RecaptchaAdminConfig?
    let project: RecaptchaAdminConfig?

    func state(of provider: RecaptchaProvider) -> RecaptchaEnforcementState {
      tenant?.state(of: provider) ?? project?.state(of: provider) ?? .off
    }
  }
}
