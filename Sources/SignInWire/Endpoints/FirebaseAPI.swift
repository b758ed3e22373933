/// The Firebase Auth API, each call described once (``Endpoint``): Identity Toolkit v1 and v2
/// (client and administrator calls), their v3 relying-party aliases, Secure Token, and the Auth
/// emulator's own routes. ``all`` lists every one; nothing else in the package spells a call's
/// path.
///
/// - Concurrency: stateless; its values are `Sendable`.
package enum FirebaseAPI {
  // MARK: - Signing in (v1, with their v3 aliases)

  /// `accounts:signUp`; an administrator's `projects/P/accounts` creates an account with the
  /// same body.
  package static let signUp = Endpoint<SignUpBody, SignInReply>(
    .post,
    client("accounts:signUp", v3: "signupNewUser", [.apiKey, .idToken, .admin])
      + projectAndTenant("v1", "/accounts"))
  package static let signInWithPassword = Endpoint<PasswordSignInBody, SignInReply>(
    .post, client("accounts:signInWithPassword", v3: "verifyPassword", .apiKey))
  package static let signInWithIdp = Endpoint<IdpSignInBody, SignInReply>(
    .post, client("accounts:signInWithIdp", v3: "verifyAssertion", .apiKey))
  package static let signInWithCustomToken = Endpoint<CustomTokenSignInBody, SignInReply>(
    .post, client("accounts:signInWithCustomToken", v3: "verifyCustomToken", .apiKey))
  package static let signInWithEmailLink = Endpoint<EmailLinkSignInBody, SignInReply>(
    .post, client("accounts:signInWithEmailLink", v3: "emailLinkSignin", .apiKey))
  package static let sendVerificationCode = Endpoint<SendVerificationCodeBody, SessionInfoReply>(
    .post, client("accounts:sendVerificationCode", v3: "sendVerificationCode", .apiKey))
  package static let signInWithPhoneNumber = Endpoint<PhoneSignInBody, SignInReply>(
    .post, client("accounts:signInWithPhoneNumber", v3: "verifyPhoneNumber", .apiKey))
  /// An iOS app's APNs token for a silent push that proves the app before a code is texted.
  package static let verifyIosClient = Endpoint<VerifyIosClientBody, VerifyIosClientReply>(
    .post,
    [
      EndpointPath(.identityToolkit, "v1/accounts:verifyIosClient", .apiKey),
      EndpointPath(
        .relyingParty, "verifyClient", .apiKey,
        unlisted: "FirebaseAuth's iOS SDK calls the v3 relying party's verifyClient, which the 2018 v3 document "
          + "predates; v1's accounts:verifyIosClient is the same call"),
    ])

  // MARK: - Accounts (v1; an administrator's forms scoped to a project or tenant)

  package static let lookup = Endpoint<LookupBody, LookupReply>(
    .post,
    client("accounts:lookup", v3: "getAccountInfo", [.idToken, .admin]) + projectAndTenant("v1", "/accounts:lookup"))
  package static let update = Endpoint<UpdateAccountBody, UpdateAccountReply>(
    .post,
    client("accounts:update", v3: "setAccountInfo", [.apiKey, .idToken, .admin])
      + projectAndTenant("v1", "/accounts:update"))
  package static let delete = Endpoint<DeleteAccountBody, DeleteAccountReply>(
    .post,
    client("accounts:delete", v3: "deleteAccount", [.idToken, .admin]) + projectAndTenant("v1", "/accounts:delete"))
  package static let sendOobCode = Endpoint<SendOobCodeBody, OobCodeReply>(
    .post,
    client("accounts:sendOobCode", v3: "getOobConfirmationCode", [.apiKey, .admin])
      + projectAndTenant("v1", "/accounts:sendOobCode"))
  package static let resetPassword = Endpoint<ResetPasswordBody, ResetPasswordReply>(
    .post, client("accounts:resetPassword", v3: "resetPassword", .apiKey))
  package static let createAuthUri = Endpoint<CreateAuthUriBody, CreateAuthUriReply>(
    .post, client("accounts:createAuthUri", v3: "createAuthUri", .apiKey))
  /// The project's settings a client SDK reads at start (the JS SDK checks its page's domain).
  package static let projectConfig = Endpoint<NoBody, ProjectConfigReply>(
    .get, client("projects", v3: "getProjectConfig", [.apiKey, .admin]))

  /// The password policy a client checks new passwords against (the JS SDK asks at start).
  package static let passwordPolicy = Endpoint<PasswordPolicyQuery, PasswordPolicyReply>(
    .get, [EndpointPath(.identityToolkit, "v2/passwordPolicy", .apiKey)])
  /// Whether reCAPTCHA protects sign-in (the JS SDK asks at start).
  package static let recaptchaConfig = Endpoint<RecaptchaConfigQuery, RecaptchaConfigReply>(
    .get, [EndpointPath(.identityToolkit, "v2/recaptchaConfig", .apiKey)])

  // MARK: - Identity Toolkit v2 (second factors, provider tokens)

  package static let revokeToken = Endpoint<RevokeTokenBody, NoBody>(
    .post, [EndpointPath(.identityToolkit, "v2/accounts:revokeToken", .idToken)])
  package static let startMfaEnrollment = Endpoint<StartMfaEnrollmentBody, StartMfaEnrollmentReply>(
    .post, [EndpointPath(.identityToolkit, "v2/accounts/mfaEnrollment:start", .idToken)])
  package static let finalizeMfaEnrollment = Endpoint<FinalizeMfaEnrollmentBody, SignInReply>(
    .post, [EndpointPath(.identityToolkit, "v2/accounts/mfaEnrollment:finalize", .idToken)])
  package static let withdrawMfa = Endpoint<WithdrawMfaBody, SignInReply>(
    .post, [EndpointPath(.identityToolkit, "v2/accounts/mfaEnrollment:withdraw", .idToken)])
  package static let startMfaSignIn = Endpoint<StartMfaSignInBody, StartMfaSignInReply>(
    .post, [EndpointPath(.identityToolkit, "v2/accounts/mfaSignIn:start", .apiKey)])
  package static let finalizeMfaSignIn = Endpoint<FinalizeMfaSignInBody, SignInReply>(
    .post, [EndpointPath(.identityToolkit, "v2/accounts/mfaSignIn:finalize", .apiKey)])

  // MARK: - Identity Toolkit v2 passkeys (Identity Platform's preview)

  package static let startPasskeyEnrollment = Endpoint<StartPasskeyEnrollmentBody, StartPasskeyEnrollmentReply>(
    .post, [passkey("v2/accounts/passkeyEnrollment:start", .idToken)])
  package static let finalizePasskeyEnrollment = Endpoint<FinalizePasskeyEnrollmentBody, SignInReply>(
    .post, [passkey("v2/accounts/passkeyEnrollment:finalize", .idToken)])
  package static let startPasskeySignIn = Endpoint<StartPasskeySignInBody, StartPasskeySignInReply>(
    .post, [passkey("v2/accounts/passkeySignIn:start", .apiKey)])
  package static let finalizePasskeySignIn = Endpoint<FinalizePasskeySignInBody, SignInReply>(
    .post, [passkey("v2/accounts/passkeySignIn:finalize", .apiKey)])

  // MARK: - Secure Token

  /// A refresh grant: a form in the documented call (iOS sends JSON; the emulator takes both).
  package static let token = Endpoint<RefreshGrantBody, SecureTokenReply>(
    .post, [EndpointPath(.secureToken, "v1/token", .apiKey)], isForm: true)

  // MARK: - Administration (v1)

  package static let batchCreate = Endpoint<UploadAccountBody, UploadAccountReply>(
    .post, projectAndTenant("v1", "/accounts:batchCreate"))
  package static let batchDelete = Endpoint<BatchDeleteBody, BatchDeleteReply>(
    .post, projectAndTenant("v1", "/accounts:batchDelete"))
  package static let batchGet = Endpoint<DownloadAccountQuery, LookupReply>(
    .get, projectAndTenant("v1", "/accounts:batchGet"))
  package static let queryAccounts = Endpoint<QueryAccountsBody, QueryAccountsReply>(
    .post, projectAndTenant("v1", "/accounts:query"))
  package static let createSessionCookie = Endpoint<CreateSessionCookieBody, SessionCookieReply>(
    .post, projectAndTenant("v1", ":createSessionCookie"))

  // MARK: - Tenants and provider configurations (v2)

  package static let createTenant = Endpoint<Tenant, Tenant>(.post, tenants(""))
  package static let listTenants = Endpoint<PageQuery, TenantList>(.get, tenants(""))
  package static let getTenant = Endpoint<NoBody, Tenant>(.get, tenants("/{tenant}"))
  package static let updateTenant = Endpoint<ResourceUpdate<Tenant>, Tenant>(.patch, tenants("/{tenant}"))
  package static let deleteTenant = Endpoint<NoBody, NoBody>(.delete, tenants("/{tenant}"))

  /// The project's settings: what `signin serve` keeps of them is reCAPTCHA's.
  package static let getProjectSettings = Endpoint<NoBody, ProjectConfig>(
    .get, [EndpointPath(.identityToolkit, "v2/projects/{project}/config", .admin)])
  package static let updateProjectSettings = Endpoint<ResourceUpdate<ProjectConfig>, ProjectConfig>(
    .patch, [EndpointPath(.identityToolkit, "v2/projects/{project}/config", .admin)])

  package static let createOAuthIdpConfig = Endpoint<NewOAuthIdpConfig, OAuthIdpConfig>(
    .post, projectAndTenant("v2", "/\(oauthIdpConfigs)"))
  package static let listOAuthIdpConfigs = Endpoint<PageQuery, OAuthIdpConfigList>(
    .get, projectAndTenant("v2", "/\(oauthIdpConfigs)"))
  package static let getOAuthIdpConfig = Endpoint<NoBody, OAuthIdpConfig>(
    .get, projectAndTenant("v2", "/\(oauthIdpConfigs)/{id}"))
  package static let updateOAuthIdpConfig = Endpoint<ResourceUpdate<OAuthIdpConfig>, OAuthIdpConfig>(
    .patch, projectAndTenant("v2", "/\(oauthIdpConfigs)/{id}"))
  package static let deleteOAuthIdpConfig = Endpoint<NoBody, NoBody>(
    .delete, projectAndTenant("v2", "/\(oauthIdpConfigs)/{id}"))

  package static let createInboundSamlConfig = Endpoint<NewInboundSamlConfig, InboundSamlConfig>(
    .post, projectAndTenant("v2", "/\(inboundSamlConfigs)"))
  package static let listInboundSamlConfigs = Endpoint<PageQuery, InboundSamlConfigList>(
    .get, projectAndTenant("v2", "/\(inboundSamlConfigs)"))
  package static let getInboundSamlConfig = Endpoint<NoBody, InboundSamlConfig>(
    .get, projectAndTenant("v2", "/\(inboundSamlConfigs)/{id}"))
  package static let updateInboundSamlConfig = Endpoint<ResourceUpdate<InboundSamlConfig>, InboundSamlConfig>(
    .patch, projectAndTenant("v2", "/\(inboundSamlConfigs)/{id}"))
  package static let deleteInboundSamlConfig = Endpoint<NoBody, NoBody>(
    .delete, projectAndTenant("v2", "/\(inboundSamlConfigs)/{id}"))

  /// The collection of a project's or tenant's OpenID Connect providers.
  package static let oauthIdpConfigs = "oauthIdpConfigs"
  /// The collection of a project's or tenant's SAML providers.
  package static let inboundSamlConfigs = "inboundSamlConfigs"

  // MARK: - The Auth emulator's own routes

  /// `GET /`: whether the emulator is up.
  package static let emulatorReady = Endpoint<NoBody, EmulatorReadyReply>(
    .get, [EndpointPath(.emulator, "", .anyone)])
  /// Deletes every account of the project (or tenant), as test suites do between tests.
  package static let clearAccounts = Endpoint<NoBody, NoBody>(.delete, emulatorProject("/accounts"))
  package static let emulatorConfig = Endpoint<NoBody, EmulatorProjectConfig>(.get, emulatorProject("/config"))
  package static let updateEmulatorConfig = Endpoint<EmulatorProjectConfig, EmulatorProjectConfig>(
    .patch, emulatorProject("/config"))
  /// The codes the emulator would have emailed.
  package static let oobCodes = Endpoint<NoBody, EmulatorOobCodesReply>(.get, emulatorProject("/oobCodes"))
  /// The codes the emulator would have texted.
  package static let verificationCodes = Endpoint<NoBody, EmulatorVerificationCodesReply>(
    .get, emulatorProject("/verificationCodes"))
  /// The silent pushes the emulator would have sent to iOS apps' APNs tokens.
  package static let pushNotifications = Endpoint<NoBody, EmulatorPushNotificationsReply>(
    .get, emulatorProject("/pushNotifications"))
  /// The page an emailed link opens.
  package static let emulatorAction = Endpoint<EmulatorActionQuery, EmulatorActionPage>(
    .get, [EndpointPath(.emulator, "emulator/action", .anyone)])

  /// The hosted handler's page, where a person picks or makes a fake account of the provider a
  /// client signs in with (Firebase's `https://AUTH_DOMAIN/__/auth/handler`).
  package static let emulatorHandler = Endpoint<EmulatorHandlerQuery, EmulatorWebPage>(
    .get, [EndpointPath(.emulator, "emulator/auth/handler", .anyone)])
  /// The handler page's forms: the account picked, handed back to the client.
  package static let emulatorHandlerChoice = Endpoint<EmulatorHandlerQuery, EmulatorWebPage>(
    .get, [EndpointPath(.emulator, "emulator/auth/handler/choose", .anyone)])
  /// The accounts page: a project's or tenant's users, codes and a reset, in a browser.
  package static let emulatorAccountsPage = Endpoint<EmulatorAccountsPageQuery, EmulatorWebPage>(
    .get, [EndpointPath(.emulator, "emulator/auth/accounts", .anyone)])

  /// Every endpoint, in the order above.
  package static let all: [any EndpointDescription] = [
    signUp, signInWithPassword, signInWithIdp, signInWithCustomToken, signInWithEmailLink, sendVerificationCode,
    signInWithPhoneNumber, verifyIosClient, lookup, update, delete, sendOobCode, resetPassword, createAuthUri,
    projectConfig, passwordPolicy, recaptchaConfig,
    revokeToken, startMfaEnrollment, finalizeMfaEnrollment, withdrawMfa, startMfaSignIn, finalizeMfaSignIn, token,
    startPasskeyEnrollment, finalizePasskeyEnrollment, startPasskeySignIn, finalizePasskeySignIn,
    batchCreate, batchDelete, batchGet, queryAccounts, createSessionCookie,
    createTenant, listTenants, getTenant, updateTenant, deleteTenant, getProjectSettings, updateProjectSettings,
    createOAuthIdpConfig, listOAuthIdpConfigs, getOAuthIdpConfig, updateOAuthIdpConfig, deleteOAuthIdpConfig,
    createInboundSamlConfig, listInboundSamlConfigs, getInboundSamlConfig, updateInboundSamlConfig,
    deleteInboundSamlConfig,
    emulatorReady, clearAccounts, emulatorConfig, updateEmulatorConfig, oobCodes, verificationCodes, pushNotifications,
    emulatorAction, emulatorHandler, emulatorHandlerChoice, emulatorAccountsPage,
  ]

  // MARK: - Paths

  /// A client call `v1/NAME` and its v3 relying-party alias.
  private static func client(_ name: String, v3: String, _ callers: EndpointPath.Callers) -> [EndpointPath] {
    [EndpointPath(.identityToolkit, "v1/" + name, callers), EndpointPath(.relyingParty, v3, callers)]
  }

  /// An administrator's call under a project, and the same under one of its tenants.
  private static func projectAndTenant(_ version: String, _ rest: String) -> [EndpointPath] {
    [
      EndpointPath(.identityToolkit, "\(version)/projects/{project}" + rest, .admin),
      EndpointPath(.identityToolkit, "\(version)/projects/{project}/tenants/{tenant}" + rest, .admin),
    ]
  }

  private static func tenants(_ rest: String) -> [EndpointPath] {
    [EndpointPath(.identityToolkit, "v2/projects/{project}/tenants" + rest, .admin)]
  }

  /// An emulator route of a project, and the same for one of its tenants.
  /// A passkey call of the v2 client API, which no discovery document lists.
  private static func passkey(_ template: String, _ callers: EndpointPath.Callers) -> EndpointPath {
    EndpointPath(.identityToolkit, template, callers, unlisted: PasskeyPreview.reason)
  }

  private static func emulatorProject(_ rest: String) -> [EndpointPath] {
    [
      EndpointPath(.emulator, "emulator/v1/projects/{project}" + rest, .anyone),
      EndpointPath(.emulator, "emulator/v1/projects/{project}/tenants/{tenant}" + rest, .anyone),
    ]
  }
}
