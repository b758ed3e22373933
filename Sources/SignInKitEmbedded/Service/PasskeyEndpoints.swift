import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// Identity Platform's passkey preview (`accounts/passkeyEnrollment:*`,
/// `accounts/passkeySignIn:*`), served by the embedded backend's WebAuthn relying party. No
/// Firebase emulator serves these; the shapes are the preview's, and both spellings of the
/// authenticator's response are read (``PasskeyRegistrationResponse``).
enum PasskeyEndpoints {
  static func startEnrollment(_ body: StartPasskeyEnrollmentBody, _ context: ServiceContext) async throws
    -> StartPasskeyEnrollmentReply
  {
    let idToken = try body.required(body.idToken, .missingIdToken)
    let options = try await context.backend().passkeyCeremony { try $0.startPasskeyEnrollment(idToken: idToken) }
    var creation = PasskeyCreationOptions()
    creation.rp = PasskeyEntity(id: options.relyingPartyID, name: options.relyingPartyID)
    creation.user = PasskeyEntity(
      id: WireBytes.encode(options.userID), name: options.userName,
      displayName: options.displayName.isEmpty ? options.userName : options.displayName)
    creation.challenge = WireBytes.encode(options.challenge)
    creation.pubKeyCredParams = options.algorithms.map { PasskeyCredentialParameters(alg: $0) }
    creation.excludeCredentials = options.excludedCredentialIDs.map {
      PasskeyCredentialDescriptor(credentialId: WireBytes.encode($0))
    }
    creation.authenticatorSelection = PasskeyAuthenticatorSelection(
      requireResidentKey: true, userVerification: options.requiresUserVerification ? "required" : "preferred")
    return StartPasskeyEnrollmentReply(credentialCreationOptions: creation)
  }

  static func finalizeEnrollment(_ body: FinalizePasskeyEnrollmentBody, _ context: ServiceContext) async throws
    -> SignInReply
  {
    let idToken = try body.required(body.idToken, .missingIdToken)
    guard let registration = body.authenticatorRegistrationResponse, let response = registration.anyResponse else {
      throw FirebaseFailure(.invalidAuthenticatorResponse, "send authenticatorRegistrationResponse with its response")
    }
    let passkey = PasskeyRegistration(
      credentialID: try bytes(registration.anyCredentialID, "the credential id"),
      clientDataJSON: try bytes(response.clientDataJSON, "clientDataJSON"),
      attestationObject: try bytes(response.attestationObject, "attestationObject"),
      transports: response.transports ?? [])
    let name = body.name ?? ""
    let (tokens, _) = try await context.backend().passkeyCeremony {
      try $0.finalizePasskeyEnrollment(idToken: idToken, name: name, registration: passkey)
    }
    return ReplyShapes.tokens(tokens)
  }

  static func startSignIn(_ body: StartPasskeySignInBody, _ context: ServiceContext) async throws
    -> StartPasskeySignInReply
  {
    let sessionID = body.sessionId
    let options = try await context.backend().passkeyCeremony { try $0.startPasskeySignIn(sessionID: sessionID) }
    return StartPasskeySignInReply(
      credentialRequestOptions: PasskeyRequestOptions(
        challenge: WireBytes.encode(options.challenge), rpId: options.relyingPartyID,
        userVerification: options.requiresUserVerification ? "required" : "preferred"))
  }

  static func finalizeSignIn(_ body: FinalizePasskeySignInBody, _ context: ServiceContext) async throws -> SignInReply {
    guard let signed = body.authenticatorAuthenticationResponse, let response = signed.anyResponse else {
      throw FirebaseFailure(.invalidAuthenticatorResponse, "send authenticatorAuthenticationResponse with its response")
    }
    let handle = try response.userHandle.flatMap { $0.isEmpty ? nil : try bytes($0, "the user handle") }
    let assertion = PasskeyAssertion(
      credentialID: try bytes(signed.anyCredentialID, "the credential id"),
      clientDataJSON: try bytes(response.clientDataJSON, "clientDataJSON"),
      authenticatorData: try bytes(response.authenticatorData, "authenticatorData"),
      signature: try bytes(response.signature, "the signature"), userHandle: handle)
    // A passkey without user verification on an account with a second factor waits for it.
    return try await ReplyShapes.signingIn {
      let sessionID = body.sessionId
      let signedIn = try await context.backend().run {
        try await $0.passkeys.finalizePasskeySignIn(assertion, sessionID: sessionID)
      }
      var reply = ReplyShapes.tokens(signedIn.tokens)
      reply.localId = signedIn.localID
      return reply
    }
  }

  /// The bytes of a base64 field, or the preview's error naming it.
  private static func bytes(_ text: String?, _ name: String) throws(FirebaseFailure) -> Data {
    guard let text, let bytes = WireBytes.decode(text), !bytes.isEmpty else {
      throw FirebaseFailure(.invalidAuthenticatorResponse, "\(name) is missing or not base64")
    }
    return Data(bytes)
  }
}
