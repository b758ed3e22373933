// Identity Platform's passkey preview (Identity Toolkit v2, `accounts/passkeyEnrollment:*` and
// `accounts/passkeySignIn:*`). No discovery document lists these calls today; the shapes come
// from google-api-python-client's generated pages (docs/dyn/identitytoolkit_v2.accounts.
// passkeyEnrollment.html and .passkeySignIn.html), and from FirebaseAuth's Swift RPCs, which
// send the authenticator's response as WebAuthn's JSON names it (`id`, `response`,
// `clientDataJSON`). Both spellings are read; FirebaseAuth's is sent. Binary values are
// base64 (either alphabet is read; standard is sent, as FirebaseAuth sends it).

/// Why the passkey calls and fields are sent though no discovery document lists them.
///
/// - Concurrency: stateless.
package enum PasskeyPreview {
  package static let reason =
    "Identity Platform's passkey preview: google-api-python-client's generated pages and FirebaseAuth's Swift "
    + "RPCs describe it, the discovery documents it ships no longer list it"
}

/// `accounts/passkeyEnrollment:start`: the creation options for a new passkey of the account
/// `idToken` names.
///
/// - Concurrency: `Sendable` value.
package struct StartPasskeyEnrollmentBody: WireBody, TenantNaming {
  package var idToken: String?
  package var tenantId: String?

  package init(idToken: String? = nil) { self.idToken = idToken }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, tenantId
  }
}

/// The reply to `accounts/passkeyEnrollment:start`.
///
/// - Concurrency: `Sendable` value.
package struct StartPasskeyEnrollmentReply: WireBody, LenientValue {
  @Lenient package var credentialCreationOptions: PasskeyCreationOptions?

  package init(credentialCreationOptions: PasskeyCreationOptions? = nil) {
    self.credentialCreationOptions = credentialCreationOptions
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case credentialCreationOptions
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PasskeyCreationOptions.fieldNames
  }
}

/// WebAuthn's `PublicKeyCredentialCreationOptions`, as Identity Toolkit spells them.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyCreationOptions: WireBody, LenientValue {
  @Lenient package var rp: PasskeyEntity?
  @Lenient package var user: PasskeyEntity?
  @Lenient package var challenge: String?
  @Lenient package var pubKeyCredParams: [PasskeyCredentialParameters]?
  @Lenient package var excludeCredentials: [PasskeyCredentialDescriptor]?
  @Lenient package var authenticatorSelection: PasskeyAuthenticatorSelection?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case rp, user, challenge, pubKeyCredParams, excludeCredentials, authenticatorSelection
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PasskeyEntity.fieldNames + PasskeyCredentialParameters.fieldNames
      + PasskeyCredentialDescriptor.fieldNames + PasskeyAuthenticatorSelection.fieldNames
  }
}

/// The relying party or the user of a creation: an id, and names to show.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyEntity: WireBody, LenientValue {
  @Lenient package var id: String?
  @Lenient package var name: String?
  @Lenient package var displayName: String?

  package init(id: String?, name: String? = nil, displayName: String? = nil) {
    self.id = id
    self.name = name
    self.displayName = displayName
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case id, name, displayName
  }
}

/// A key type the relying party takes: a COSE algorithm number (as a string, an int64 in
/// JSON) and `public-key`.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyCredentialParameters: WireBody, LenientValue {
  @Lenient package var alg: String?
  @Lenient package var credentialType: String?

  package init(alg: Int, credentialType: String = "public-key") {
    self.alg = String(alg)
    self.credentialType = credentialType
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case alg, credentialType
  }
}

/// A credential the account has: excluded from a new enrolment.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyCredentialDescriptor: WireBody, LenientValue {
  @Lenient package var credentialId: String?
  @Lenient package var credentialType: String?
  @Lenient package var transports: [String]?

  package init(credentialId: String, transports: [String]? = nil) {
    self.credentialId = credentialId
    self.credentialType = "public-key"
    self.transports = transports
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case credentialId, credentialType, transports
  }
}

/// What kind of authenticator the relying party wants.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyAuthenticatorSelection: WireBody, LenientValue {
  @Lenient package var authenticatorAttachment: String?
  @Lenient package var requireResidentKey: Bool?
  /// `required`, `preferred` or `discouraged`.
  @Lenient package var userVerification: String?

  package init(requireResidentKey: Bool, userVerification: String) {
    self.requireResidentKey = requireResidentKey
    self.userVerification = userVerification
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case authenticatorAttachment, requireResidentKey, userVerification
  }
}

/// `accounts/passkeyEnrollment:finalize`: the authenticator's registration, and the name the
/// user gives the passkey.
///
/// - Concurrency: `Sendable` value.
package struct FinalizePasskeyEnrollmentBody: WireBody, TenantNaming {
  package var idToken: String?
  package var name: String?
  package var authenticatorRegistrationResponse: PasskeyRegistrationResponse?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, name, authenticatorRegistrationResponse, tenantId
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PasskeyRegistrationResponse.fieldNames
  }
}

/// A registration: the credential id and the attestation response, in FirebaseAuth's spelling
/// (`id`, `response`) or the generated reference's (`credentialId`,
/// `authenticatorAttestationResponse`).
///
/// - Concurrency: `Sendable` value.
package struct PasskeyRegistrationResponse: WireBody {
  package var id: String?
  package var credentialId: String?
  package var credentialType: String?
  package var response: PasskeyAttestationResponse?
  package var authenticatorAttestationResponse: PasskeyAttestationResponse?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case id, credentialId, credentialType, response, authenticatorAttestationResponse
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PasskeyAttestationResponse.fieldNames
  }

  /// The credential id, in whichever spelling came.
  package var anyCredentialID: String? { id ?? credentialId }
  /// The attestation response, in whichever spelling came.
  package var anyResponse: PasskeyAttestationResponse? { response ?? authenticatorAttestationResponse }
}

/// WebAuthn's `AuthenticatorAttestationResponse`. The reference's `clientDataJson` is read
/// here too: field names are matched without regard to case.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyAttestationResponse: WireBody {
  package var clientDataJSON: String?
  package var attestationObject: String?
  package var transports: [String]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case clientDataJSON, attestationObject, transports
  }
}

/// `accounts/passkeySignIn:start`: a challenge for a passkey sign-in.
///
/// - Concurrency: `Sendable` value.
package struct StartPasskeySignInBody: WireBody, TenantNaming {
  package var sessionId: String?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case sessionId, tenantId
  }
}

/// The reply to `accounts/passkeySignIn:start`: the documented `credentialRequestOptions`, or
/// `options` as FirebaseAuth reads it.
///
/// - Concurrency: `Sendable` value.
package struct StartPasskeySignInReply: WireBody, LenientValue {
  @Lenient package var credentialRequestOptions: PasskeyRequestOptions?
  @Lenient package var options: PasskeyRequestOptions?

  package init(credentialRequestOptions: PasskeyRequestOptions? = nil) {
    self.credentialRequestOptions = credentialRequestOptions
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case credentialRequestOptions, options
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PasskeyRequestOptions.fieldNames
  }
}

/// WebAuthn's `PublicKeyCredentialRequestOptions`, as Identity Toolkit spells them.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyRequestOptions: WireBody, LenientValue {
  @Lenient package var challenge: String?
  @Lenient package var rpId: String?
  @Lenient package var userVerification: String?

  package init(challenge: String, rpId: String, userVerification: String) {
    self.challenge = challenge
    self.rpId = rpId
    self.userVerification = userVerification
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case challenge, rpId, userVerification
  }
}

/// `accounts/passkeySignIn:finalize`: the authenticator's assertion.
///
/// - Concurrency: `Sendable` value.
package struct FinalizePasskeySignInBody: WireBody, TenantNaming {
  package var authenticatorAuthenticationResponse: PasskeyAuthenticationResponse?
  package var sessionId: String?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case authenticatorAuthenticationResponse, sessionId, tenantId
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PasskeyAuthenticationResponse.fieldNames
  }
}

/// An assertion: the credential id and the assertion response, in either spelling.
///
/// - Concurrency: `Sendable` value.
package struct PasskeyAuthenticationResponse: WireBody {
  package var id: String?
  package var credentialId: String?
  package var credentialType: String?
  package var response: PasskeyAssertionResponse?
  package var authenticatorAssertionResponse: PasskeyAssertionResponse?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case id, credentialId, credentialType, response, authenticatorAssertionResponse
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PasskeyAssertionResponse.fieldNames
  }

  package var anyCredentialID: String? { id ?? credentialId }
  package var anyResponse: PasskeyAssertionResponse? { response ?? authenticatorAssertionResponse }
}

/// WebAuthn's `AuthenticatorAssertionResponse` (the reference's `clientDataJson` is read too).
///
/// - Concurrency: `Sendable` value.
package struct PasskeyAssertionResponse: WireBody {
  package var clientDataJSON: String?
  package var authenticatorData: String?
  package var signature: String?
  package var userHandle: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case clientDataJSON, authenticatorData, signature, userHandle
  }
}

/// A passkey on an account, as a lookup lists it (`passkeyInfo`).
///
/// - Concurrency: `Sendable` value.
package struct PasskeyInfoRecord: WireBody, LenientValue {
  @Lenient package var name: String?
  @Lenient package var credentialId: String?

  package init(name: String, credentialId: String) {
    self.name = name
    self.credentialId = credentialId
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, credentialId
  }
}
