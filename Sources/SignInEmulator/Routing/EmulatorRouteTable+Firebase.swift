import SignInWire

extension EmulatorRouteTable {
  /// Every endpoint of ``FirebaseAPI/all`` and its handler.
  static let firebase: EmulatorRouteTable = {
    var table = EmulatorRouteTable()
    table.add(FirebaseAPI.signUp, SignInHandlers.signUp)
    table.add(FirebaseAPI.signInWithPassword, SignInHandlers.signInWithPassword)
    table.add(FirebaseAPI.signInWithIdp, SignInHandlers.signInWithIdp)
    table.add(FirebaseAPI.signInWithCustomToken, SignInHandlers.signInWithCustomToken)
    table.add(FirebaseAPI.signInWithEmailLink, SignInHandlers.signInWithEmailLink)
    table.add(FirebaseAPI.sendVerificationCode, SignInHandlers.sendVerificationCode)
    table.add(FirebaseAPI.signInWithPhoneNumber, SignInHandlers.signInWithPhoneNumber)
    table.add(FirebaseAPI.token, SignInHandlers.token)
    table.add(FirebaseAPI.verifyIosClient, SignInHandlers.verifyIosClient)

    table.add(FirebaseAPI.lookup, AccountHandlers.lookup)
    table.add(FirebaseAPI.update, AccountHandlers.update)
    table.add(FirebaseAPI.delete, AccountHandlers.delete)
    table.add(FirebaseAPI.sendOobCode, AccountHandlers.sendOobCode)
    table.add(FirebaseAPI.resetPassword, AccountHandlers.resetPassword)
    table.add(FirebaseAPI.createAuthUri, AccountHandlers.createAuthUri)
    table.add(FirebaseAPI.projectConfig, AccountHandlers.projectConfig)
    table.add(FirebaseAPI.revokeToken, AccountHandlers.revokeToken)

    table.add(FirebaseAPI.startMfaEnrollment, SecondFactorHandlers.startEnrollment)
    table.add(FirebaseAPI.finalizeMfaEnrollment, SecondFactorHandlers.finalizeEnrollment)
    table.add(FirebaseAPI.withdrawMfa, SecondFactorHandlers.withdraw)
    table.add(FirebaseAPI.startMfaSignIn, SecondFactorHandlers.startSignIn)
    table.add(FirebaseAPI.finalizeMfaSignIn, SecondFactorHandlers.finalizeSignIn)
    table.add(FirebaseAPI.startPasskeyEnrollment, PasskeyHandlers.startEnrollment)
    table.add(FirebaseAPI.finalizePasskeyEnrollment, PasskeyHandlers.finalizeEnrollment)
    table.add(FirebaseAPI.startPasskeySignIn, PasskeyHandlers.startSignIn)
    table.add(FirebaseAPI.finalizePasskeySignIn, PasskeyHandlers.finalizeSignIn)

    table.add(FirebaseAPI.batchCreate, AdministrationHandlers.batchCreate)
    table.add(FirebaseAPI.batchDelete, AdministrationHandlers.batchDelete)
    table.add(FirebaseAPI.batchGet, AdministrationHandlers.batchGet)
    table.add(FirebaseAPI.createSessionCookie, AdministrationHandlers.createSessionCookie)

    table.add(FirebaseAPI.createTenant, TenantHandlers.create)
    table.add(FirebaseAPI.listTenants, TenantHandlers.list)
    table.add(FirebaseAPI.getTenant, TenantHandlers.get)
    table.add(FirebaseAPI.updateTenant, TenantHandlers.update)
    table.add(FirebaseAPI.deleteTenant, TenantHandlers.delete)

    table.add(FirebaseAPI.createOAuthIdpConfig, ProviderConfigHandlers.createOIDC)
    table.add(FirebaseAPI.listOAuthIdpConfigs, ProviderConfigHandlers.listOIDC)
    table.add(FirebaseAPI.getOAuthIdpConfig, ProviderConfigHandlers.getOIDC)
    table.add(FirebaseAPI.updateOAuthIdpConfig, ProviderConfigHandlers.updateOIDC)
    table.add(FirebaseAPI.deleteOAuthIdpConfig, ProviderConfigHandlers.deleteOIDC)
    table.add(FirebaseAPI.createInboundSamlConfig, ProviderConfigHandlers.createSAML)
    table.add(FirebaseAPI.listInboundSamlConfigs, ProviderConfigHandlers.listSAML)
    table.add(FirebaseAPI.getInboundSamlConfig, ProviderConfigHandlers.getSAML)
    table.add(FirebaseAPI.updateInboundSamlConfig, ProviderConfigHandlers.updateSAML)
    table.add(FirebaseAPI.deleteInboundSamlConfig, ProviderConfigHandlers.deleteSAML)

    table.add(FirebaseAPI.emulatorReady, UtilityHandlers.ready)
    table.add(FirebaseAPI.clearAccounts, UtilityHandlers.clearAccounts)
    table.add(FirebaseAPI.emulatorConfig, UtilityHandlers.config)
    table.add(FirebaseAPI.updateEmulatorConfig, UtilityHandlers.updateConfig)
    table.add(FirebaseAPI.oobCodes, UtilityHandlers.oobCodes)
    table.add(FirebaseAPI.verificationCodes, UtilityHandlers.verificationCodes)
    table.add(FirebaseAPI.pushNotifications, UtilityHandlers.pushNotifications)
    table.add(FirebaseAPI.emulatorAction, UtilityHandlers.action)
    return table
  }()
}
