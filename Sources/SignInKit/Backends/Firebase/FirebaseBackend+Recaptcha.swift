import SignInWire

extension FirebaseBackend {
  /// Makes a call Firebase may protect with reCAPTCHA Enterprise, as FirebaseAuth does: with a
  /// ``recaptcha`` provider, the project's (or tenant's) settings are read once, and `send` gets a
  /// token when `provider` is `AUDIT` or `ENFORCE`; without one, `send` gets none. When the
  /// server still asks for a token (`MISSING_RECAPTCHA_TOKEN`, because the settings changed) or
  /// refuses the one sent (`INVALID_RECAPTCHA_TOKEN`), the settings are read again and the call is
  /// made once more with a new token.
  ///
  /// - Throws: ``AuthError/Code/recaptchaRequired`` when a token is needed and there is no
  ///   provider; ``AuthError/Code/appVerificationFailed`` when the provider gives none under
  ///   `ENFORCE`. Either way `send` made no call that the server accepted.
  func protected<Reply>(
    _ provider: RecaptchaProvider, _ action: RecaptchaAction, _ send: (RecaptchaAnswer?) async throws -> Reply
  ) async throws -> Reply {
    guard recaptcha != nil else { return try await send(nil) }
    let first = try await answer(for: provider, action, settings: try await recaptchaSettings(rereading: false))
    do {
      return try await send(first)
    } catch let error as AuthError
      where error.firebaseFailure?.code == .missingRecaptchaToken
      || error.firebaseFailure?.code == .invalidRecaptchaToken
    {
      let settings = try await recaptchaSettings(rereading: true)
      return try await send(try await answer(for: provider, action, settings: settings, required: true))
    }
  }

  /// The project's (or this backend's tenant's) reCAPTCHA settings: read once, or again when
  /// `rereading`. A backend that does not answer the call at all (an older emulator) is held as
  /// every provider `OFF` until it asks for a token; then the read's failure is thrown.
  private func recaptchaSettings(rereading: Bool) async throws -> RecaptchaConfigReply {
    let key = tenantID ?? ""
    if !rereading, let known = recaptchaSettings.withLock({ $0[key] }) { return known }
    var query = RecaptchaConfigQuery()
    query.clientType = recaptcha?.clientType.rawValue
    query.version = RecaptchaAnswer.enterprise
    let settings: RecaptchaConfigReply
    do {
      settings = try await call(FirebaseAPI.recaptchaConfig, query)
    } catch let error as AuthError where !rereading && !error.isTransient && !error.code.isCancellation {
      recaptchaSettings.withLock { $0[key] = RecaptchaConfigReply() }
      return RecaptchaConfigReply()
    }
    recaptchaSettings.withLock { $0[key] = settings }
    return settings
  }

  /// The token to send for `provider` under `settings`: none when it is `OFF` (unless the server
  /// asked for one), none under `AUDIT` when the provider fails, since the server only records.
  private func answer(
    for provider: RecaptchaProvider, _ action: RecaptchaAction, settings: RecaptchaConfigReply, required: Bool = false
  ) async throws -> RecaptchaAnswer? {
    guard let recaptcha else { return nil }
    let state = required ? .enforce : settings.state(of: provider)
    guard state != .off else { return nil }
    guard let siteKey = settings.siteKey else {
      if state == .audit { return nil }
      throw AuthError(
        .misconfigured,
        "The project turns reCAPTCHA on for \(provider.spoken) but gives no reCAPTCHA Enterprise key for "
          + "\(recaptcha.clientType); add one for this platform in the console's reCAPTCHA settings.")
    }
    do {
      let token = try await recaptcha.token(for: action, siteKey: siteKey)
      return RecaptchaAnswer(
        token: token, clientType: recaptcha.clientType.rawValue, version: RecaptchaAnswer.enterprise)
    } catch {
      let error = AuthError.wrapping(error)
      if error.code.isCancellation { throw error }
      if state == .audit { return nil }
      throw AuthError(
        .appVerificationFailed,
        "reCAPTCHA gave no token (\(error.message)), and the project requires one for \(provider.spoken); "
          + "nothing was sent. Try again.")
    }
  }
}

extension RecaptchaProvider {
  /// The provider in words, for messages.
  var spoken: String {
    switch self {
    case .emailPassword: "email and password sign-in"
    case .phone: "phone sign-in"
    }
  }
}
