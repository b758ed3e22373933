import Foundation
import SignInCrypto
import SignInWire

/// Identity Platform's passkey preview on the v2 API. The calls follow the preview's shapes
/// (see `PasskeyBodies.swift` in SignInWire for where each came from); a project without the
/// preview answers them with an error this names.
extension FirebaseBackend {
  public func passkey(_ request: PasskeyRequest) async throws -> PasskeyResponse {
    do {
      return try await passkeyCall(request)
    } catch let error as AuthError where error.code == .network || error.code == .invalidResponse {
      throw error
    } catch let error as AuthError
      where [.operationNotAllowed, .misconfigured, .internal].contains(error.code)
      && error.firebaseFailure?.code != .invalidArgument
    {
      // INVALID_ARGUMENT refuses a field of this request (a name too long), not the project.
      throw AuthError(
        .operationNotAllowed,
        "This project does not take passkeys: they are an Identity Platform preview on Firebase. Enable it for the "
          + "project, or use EmbeddedBackend. (\(error.message))")
    }
  }

  private func passkeyCall(_ request: PasskeyRequest) async throws -> PasskeyResponse {
    switch request {
    case .startEnrollment(let idToken):
      let reply = try await call(FirebaseAPI.startPasskeyEnrollment, StartPasskeyEnrollmentBody(idToken: idToken))
      return .creationOptions(try Self.creationOptions(reply.credentialCreationOptions))
    case .finishEnrollment(let idToken, let name, let registration):
      var body = FinalizePasskeyEnrollmentBody()
      body.idToken = idToken
      body.name = name
      var response = PasskeyRegistrationResponse()
      response.id = WireBytes.encode(registration.credentialID)
      var attestation = PasskeyAttestationResponse()
      attestation.clientDataJSON = WireBytes.encode(registration.clientDataJSON)
      attestation.attestationObject = WireBytes.encode(registration.attestationObject)
      response.response = attestation
      body.authenticatorRegistrationResponse = response
      return try Self.tokens(try await call(FirebaseAPI.finalizePasskeyEnrollment, body), of: request)
    case .startSignIn:
      let reply = try await call(FirebaseAPI.startPasskeySignIn, StartPasskeySignInBody())
      return .requestOptions(try Self.requestOptions(reply.credentialRequestOptions ?? reply.options))
    case .finishSignIn(let assertion):
      var body = FinalizePasskeySignInBody()
      var response = PasskeyAuthenticationResponse()
      response.id = WireBytes.encode(assertion.credentialID)
      var signed = PasskeyAssertionResponse()
      signed.clientDataJSON = WireBytes.encode(assertion.clientDataJSON)
      signed.authenticatorData = WireBytes.encode(assertion.authenticatorData)
      signed.signature = WireBytes.encode(assertion.signature)
      signed.userHandle = assertion.userHandle.map(WireBytes.encode)
      response.response = signed
      body.authenticatorAuthenticationResponse = response
      let reply = try await call(FirebaseAPI.finalizePasskeySignIn, body)
      try reply.rejectSecondFactor(firstFactor: .passkey)
      return try Self.tokens(reply, of: request)
    }
  }

  private static func tokens(_ reply: SignInReply, of request: PasskeyRequest) throws -> PasskeyResponse {
    let name = request.endpointName
    let tokens = try reply.tokens(in: name)
    return .tokens(tokens, uid: try reply.localId ?? uid(of: tokens, replyingTo: name))
  }

  private static func creationOptions(_ options: PasskeyCreationOptions?) throws -> PasskeyRegistrationRequest {
    let call = FirebaseAPI.startPasskeyEnrollment.name
    guard let options, let rpID = options.rp?.id, !rpID.isEmpty else {
      throw AuthError(.invalidResponse, "The reply to \(call) names no relying party. Try again.")
    }
    guard let challenge = options.challenge.flatMap(WireBytes.decode), !challenge.isEmpty else {
      throw AuthError(.invalidResponse, "The reply to \(call) has no challenge. Try again.")
    }
    guard let user = options.user?.id.flatMap(WireBytes.decode), !user.isEmpty else {
      throw AuthError(.invalidResponse, "The reply to \(call) has no user handle. Try again.")
    }
    let algorithms = (options.pubKeyCredParams ?? []).compactMap { $0.alg.flatMap { Int($0) } }
    return PasskeyRegistrationRequest(
      relyingPartyID: rpID, challenge: Data(challenge), userID: Data(user), userName: options.user?.name ?? "",
      displayName: options.user?.displayName ?? "",
      excludedCredentialIDs: (options.excludeCredentials ?? []).compactMap {
        $0.credentialId.flatMap(WireBytes.decode).map { Data($0) }
      },
      requiresUserVerification: options.authenticatorSelection?.userVerification == "required",
      algorithms: algorithms.isEmpty ? [-7, -257] : algorithms)
  }

  private static func requestOptions(_ options: PasskeyRequestOptions?) throws -> PasskeyAssertionRequest {
    let call = FirebaseAPI.startPasskeySignIn.name
    guard let options, let rpID = options.rpId, !rpID.isEmpty,
      let challenge = options.challenge.flatMap(WireBytes.decode), !challenge.isEmpty
    else { throw AuthError(.invalidResponse, "The reply to \(call) has no relying party or challenge. Try again.") }
    return PasskeyAssertionRequest(
      relyingPartyID: rpID, challenge: Data(challenge), requiresUserVerification: options.userVerification == "required"
    )
  }
}

extension PasskeyRequest {
  /// The call's name, for messages.
  var endpointName: String {
    switch self {
    case .startEnrollment: FirebaseAPI.startPasskeyEnrollment.name
    case .finishEnrollment: FirebaseAPI.finalizePasskeyEnrollment.name
    case .startSignIn: FirebaseAPI.startPasskeySignIn.name
    case .finishSignIn: FirebaseAPI.finalizePasskeySignIn.name
    }
  }
}
