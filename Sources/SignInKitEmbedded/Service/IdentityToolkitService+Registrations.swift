import SignInWire

extension IdentityToolkitService {
  /// The handler of each endpoint the service answers, by the endpoint's signature: Firebase's
  /// (``firebase``), or a test's own.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Registrations: Sendable {
    typealias Handler = @Sendable (any Sendable, ServiceContext) async throws -> any Sendable
    private(set) var handlers: [String: Handler] = [:]

    package init() {}

    /// Whether `endpoint` has a handler.
    package func answers(_ endpoint: any EndpointDescription) -> Bool {
      handlers[endpoint.signature] != nil
    }

    /// Registers `handler` for `endpoint`; each endpoint has one.
    package mutating func add<Body, Reply>(
      _ endpoint: Endpoint<Body, Reply>, _ handler: @escaping @Sendable (Body, ServiceContext) async throws -> Reply
    ) {
      precondition(handlers[endpoint.signature] == nil, "\(endpoint.signature) is registered twice")
      handlers[endpoint.signature] = { body, context in
        guard let body = body as? Body else {
          throw FirebaseFailure(.internalError, "\(endpoint.signature) was handed another body type")
        }
        return try await handler(body, context)
      }
    }
  }

}

extension IdentityToolkitService.Registrations {
  /// Every endpoint of ``FirebaseAPI/all`` but the emulator's web pages, and its handler.
  package static let firebase: Self = {
    var registrations = Self()
    registrations.add(FirebaseAPI.signUp, SignInEndpoints.signUp)
    registrations.add(FirebaseAPI.signInWithPassword, SignInEndpoints.signInWithPassword)
    registrations.add(FirebaseAPI.signInWithIdp, SignInEndpoints.signInWithIdp)
    registrations.add(FirebaseAPI.signInWithCustomToken, SignInEndpoints.signInWithCustomToken)
    registrations.add(FirebaseAPI.signInWithEmailLink, SignInEndpoints.signInWithEmailLink)
    registrations.add(FirebaseAPI.sendVerificationCode, SignInEndpoints.sendVerificationCode)
    registrations.add(FirebaseAPI.signInWithPhoneNumber, SignInEndpoints.signInWithPhoneNumber)
    registrations.add(FirebaseAPI.token, SignInEndpoints.token)
    registrations.add(FirebaseAPI.verifyIosClient, SignInEndpoints.verifyIosClient)
    registrations.add(FirebaseAPI.lookup, AccountEndpoints.lookup)
    registrations.add(FirebaseAPI.update, AccountEndpoints.update)
    registrations.add(FirebaseAPI.delete, AccountEndpoints.delete)
    registrations.add(FirebaseAPI.sendOobCode, AccountEndpoints.sendOobCode)
    registrations.add(FirebaseAPI.resetPassword, AccountEndpoints.resetPassword)
    registrations.add(FirebaseAPI.createAuthUri, AccountEndpoints.createAuthUri)
    registrations.add(FirebaseAPI.projectConfig, AccountEndpoints.projectConfig)
    registrations.add(FirebaseAPI.passwordPolicy, AccountEndpoints.passwordPolicy)
    registrations.add(FirebaseAPI.recaptchaConfig, RecaptchaGate.reply)
    registrations.add(FirebaseAPI.revokeToken, AccountEndpoints.revokeToken)
    registrations.add(FirebaseAPI.startMfaEnrollment, SecondFactorEndpoints.startEnrollment)
    registrations.add(FirebaseAPI.finalizeMfaEnrollment, SecondFactorEndpoints.finalizeEnrollment)
    registrations.add(FirebaseAPI.withdrawMfa, SecondFactorEndpoints.withdraw)
    registrations.add(FirebaseAPI.startMfaSignIn, SecondFactorEndpoints.startSignIn)
    registrations.add(FirebaseAPI.finalizeMfaSignIn, SecondFactorEndpoints.finalizeSignIn)
    registrations.add(FirebaseAPI.startPasskeyEnrollment, PasskeyEndpoints.startEnrollment)
    registrations.add(FirebaseAPI.finalizePasskeyEnrollment, PasskeyEndpoints.finalizeEnrollment)
    registrations.add(FirebaseAPI.startPasskeySignIn, PasskeyEndpoints.startSignIn)
    registrations.add(FirebaseAPI.finalizePasskeySignIn, PasskeyEndpoints.finalizeSignIn)
    registrations.add(FirebaseAPI.batchCreate, AdministrationEndpoints.batchCreate)
    registrations.add(FirebaseAPI.batchDelete, AdministrationEndpoints.batchDelete)
    registrations.add(FirebaseAPI.batchGet, AdministrationEndpoints.batchGet)
    registrations.add(FirebaseAPI.queryAccounts, AdministrationEndpoints.queryAccounts)
    registrations.add(FirebaseAPI.createSessionCookie, AdministrationEndpoints.createSessionCookie)
    registrations.add(FirebaseAPI.createTenant, TenantEndpoints.create)
    registrations.add(FirebaseAPI.listTenants, TenantEndpoints.list)
    registrations.add(FirebaseAPI.getTenant, TenantEndpoints.get)
    registrations.add(FirebaseAPI.updateTenant, TenantEndpoints.update)
    registrations.add(FirebaseAPI.deleteTenant, TenantEndpoints.delete)
    registrations.add(FirebaseAPI.getProjectSettings, ProjectSettingsEndpoints.get)
    registrations.add(FirebaseAPI.updateProjectSettings, ProjectSettingsEndpoints.update)
    registrations.add(FirebaseAPI.createOAuthIdpConfig, ProviderConfigEndpoints.createOIDC)
    registrations.add(FirebaseAPI.listOAuthIdpConfigs, ProviderConfigEndpoints.listOIDC)
    registrations.add(FirebaseAPI.getOAuthIdpConfig, ProviderConfigEndpoints.getOIDC)
    registrations.add(FirebaseAPI.updateOAuthIdpConfig, ProviderConfigEndpoints.updateOIDC)
    registrations.add(FirebaseAPI.deleteOAuthIdpConfig, ProviderConfigEndpoints.deleteOIDC)
    registrations.add(FirebaseAPI.createInboundSamlConfig, ProviderConfigEndpoints.createSAML)
    registrations.add(FirebaseAPI.listInboundSamlConfigs, ProviderConfigEndpoints.listSAML)
    registrations.add(FirebaseAPI.getInboundSamlConfig, ProviderConfigEndpoints.getSAML)
    registrations.add(FirebaseAPI.updateInboundSamlConfig, ProviderConfigEndpoints.updateSAML)
    registrations.add(FirebaseAPI.deleteInboundSamlConfig, ProviderConfigEndpoints.deleteSAML)
    registrations.add(FirebaseAPI.emulatorReady, EmulatorEndpoints.ready)
    registrations.add(FirebaseAPI.clearAccounts, EmulatorEndpoints.clearAccounts)
    registrations.add(FirebaseAPI.emulatorConfig, EmulatorEndpoints.config)
    registrations.add(FirebaseAPI.updateEmulatorConfig, EmulatorEndpoints.updateConfig)
    registrations.add(FirebaseAPI.oobCodes, EmulatorEndpoints.oobCodes)
    registrations.add(FirebaseAPI.verificationCodes, EmulatorEndpoints.verificationCodes)
    registrations.add(FirebaseAPI.pushNotifications, EmulatorEndpoints.pushNotifications)
    registrations.add(FirebaseAPI.emulatorAction, EmulatorEndpoints.action)
    return registrations
  }()
}
