import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// Every error message the wire reference lists, in both envelopes, with and without its
/// `" : detail"` suffix, becomes the right `AuthError` code; the server's text is kept.
@Suite struct FirebaseErrorCatalogTests {
  static let expected: [(String, AuthError.Code)] = [
    ("EMAIL_EXISTS", .emailAlreadyInUse), ("OPERATION_NOT_ALLOWED", .operationNotAllowed),
    ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests), ("INVALID_EMAIL", .invalidEmail),
    ("MISSING_EMAIL", .invalidEmail), ("MISSING_PASSWORD", .weakPassword), ("WEAK_PASSWORD", .weakPassword),
    ("PASSWORD_DOES_NOT_MEET_REQUIREMENTS", .weakPassword), ("INVALID_ID_TOKEN", .sessionExpired),
    ("TOKEN_EXPIRED", .sessionExpired), ("USER_NOT_FOUND", .userNotFound),
    ("ADMIN_ONLY_OPERATION", .operationNotAllowed),
    ("EMAIL_NOT_FOUND", .userNotFound), ("INVALID_PASSWORD", .wrongPassword), ("USER_DISABLED", .userDisabled),
    ("INVALID_LOGIN_CREDENTIALS", .invalidCredential), ("PASSWORD_LOGIN_DISABLED", .operationNotAllowed),
    ("INVALID_IDP_RESPONSE", .invalidCredential), ("MISSING_OR_INVALID_NONCE", .invalidCredential),
    ("FEDERATED_USER_ID_ALREADY_LINKED", .credentialAlreadyInUse), ("INVALID_PENDING_TOKEN", .invalidCredential),
    ("MISSING_REQUEST_URI", .misconfigured), ("INVALID_REQUEST_URI", .misconfigured),
    ("INVALID_CREDENTIAL_OR_PROVIDER_ID", .invalidCredential), ("INVALID_CUSTOM_TOKEN", .invalidCustomToken),
    ("CREDENTIAL_MISMATCH", .customTokenMismatch), ("MISSING_CUSTOM_TOKEN", .invalidCustomToken),
    ("FORBIDDEN_CLAIM", .invalidCustomToken), ("INVALID_CONTINUE_URI", .misconfigured),
    ("MISSING_CONTINUE_URI", .misconfigured), ("UNAUTHORIZED_DOMAIN", .misconfigured),
    ("EXPIRED_OOB_CODE", .expiredActionCode), ("INVALID_OOB_CODE", .invalidActionCode),
    ("MISSING_OOB_CODE", .invalidActionCode), ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
    ("EMAIL_CHANGE_NEEDS_VERIFICATION", .emailChangeNeedsVerification), ("INVALID_IDENTIFIER", .invalidEmail),
    ("INVALID_REFRESH_TOKEN", .invalidRefreshToken), ("MISSING_REFRESH_TOKEN", .invalidRefreshToken),
    ("INVALID_GRANT_TYPE", .internal), ("MISSING_ID_TOKEN", .noCurrentUser), ("PERMISSION_DENIED", .misconfigured),
  ]

  static func failing(_ status: Int, _ body: String) async throws -> AuthError {
    let backend = try FirebaseBackend(
      apiKey: "K", projectID: "p", transport: RecordingTransport([.status(status, body)]), environment: [:])
    return try await #require(throws: AuthError.self) {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "a@b.co", password: "pw-123456"))
    }
  }

  @Test func everyMessageOfTheReferenceMapsToItsCodeWithOrWithoutDetail() async throws {
    for (message, code) in Self.expected {
      for text in [message, "\(message) : Some detail ((emulator note))"] {
        let toolkit = try await Self.failing(
          400,
          #"{"error":{"code":400,"message":"\#(text)","errors":[{"message":"\#(text)","domain":"global","reason":"invalid"}]}}"#
        )
        #expect(toolkit.code == code, "\(text)")
        #expect(toolkit.serverMessage == text)
        let secureToken = try await Self.failing(
          400, #"{"error":{"code":400,"message":"\#(text)","status":"INVALID_ARGUMENT"}}"#)
        #expect(secureToken.code == code, "\(text) in the Secure Token envelope")
      }
    }
  }

  @Test func theDetailIsKeptInTheMessage() async throws {
    let error = try await Self.failing(
      400, #"{"error":{"code":400,"message":"WEAK_PASSWORD : Password should be at least 6 characters"}}"#)
    #expect(error.code == .weakPassword)
    #expect(error.message.contains("Password should be at least 6 characters"))
  }

  @Test func keyAndAppRestrictionsSayWhatToFix() async throws {
    let badKey = try await Self.failing(
      400,
      #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","errors":[{"reason":"keyInvalid"}]}}"#
    )
    #expect(badKey.code == .misconfigured)
    #expect(badKey.message.contains("API key is not valid"))
    let blocked = try await Self.failing(
      403,
      #"{"error":{"code":403,"message":"Requests from this iOS client application <empty> are blocked.","errors":[{"reason":"forbidden"}],"status":"PERMISSION_DENIED"}}"#
    )
    #expect(blocked.code == .misconfigured)
    #expect(blocked.message.contains("bundle id"))
    let unknownName = try await Self.failing(
      400,
      #"{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"foo\": Cannot find field."}}"#)
    #expect(unknownName.code == .internal)
  }

  @Test func anUnknownMessageKeepsTheServersText() async throws {
    let error = try await Self.failing(400, #"{"error":{"code":400,"message":"BLOCKING_FUNCTION_ERROR_RESPONSE"}}"#)
    #expect(error.code == .internal)
    #expect(error.message.contains("BLOCKING_FUNCTION_ERROR_RESPONSE"))
    #expect(error.serverMessage == "BLOCKING_FUNCTION_ERROR_RESPONSE")
    let unimplemented = try await Self.failing(501, #"{"error":{"code":501,"message":"A_NEW_THING"}}"#)
    #expect(unimplemented.code == .unavailable)
  }

  @Test func signInWithIdpFailuresThatComeBackAs200() async throws {
    let credential = ProviderCredential(providerID: .google, idToken: "a.b.c")
    for (body, code) in [
      (
        #"{"needConfirmation":true,"email":"g@example.com","providerId":"google.com"}"#,
        AuthError.Code.accountExistsWithDifferentCredential
      ),
      (#"{"errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED","localId":"u"}"#, .credentialAlreadyInUse),
      (#"{"errorMessage":"EMAIL_EXISTS","localId":"u"}"#, .emailAlreadyInUse),
    ] {
      let backend = try FirebaseBackend(
        apiKey: "K", projectID: "p", transport: RecordingTransport([.status(200, body)]), environment: [:])
      let error = try await #require(throws: AuthError.self) {
        _ = try await backend.signInWithIdp(IdpSignInRequest(credential: credential))
      }
      #expect(error.code == code, "\(body)")
    }
  }

  @Test func aLinkConflictCarriesTheAccountsEmailAndACredentialToSignInWith() async throws {
    let sent = ProviderCredential(providerID: .google, idToken: "sent.id.token")
    let body = #"""
      {"kind":"identitytoolkit#VerifyAssertionResponse","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED",\#
      "email":"ada@example.com","providerId":"google.com","oauthIdToken":"idp.id.token",\#
      "oauthAccessToken":"idp-access-token","federatedId":"https://accounts.google.com/123"}
      """#
    let backend = try FirebaseBackend(
      apiKey: "K", projectID: "p", transport: RecordingTransport([.status(200, body)]), environment: [:])
    let error = try await #require(throws: AuthError.self) {
      _ = try await backend.signInWithIdp(IdpSignInRequest(credential: sent, idToken: "anonymous.id.token"))
    }
    #expect(error.code == .credentialAlreadyInUse)
    #expect(error.email == "ada@example.com")
    #expect(error.updatedCredential?.providerID == .google)
    #expect(error.updatedCredential?.idToken == "idp.id.token")
    #expect(error.updatedCredential?.accessToken == "idp-access-token")
    // Neither token is in what the error says of itself.
    #expect(!"\(error)".contains("idp.id.token") && !String(reflecting: error).contains("idp-access-token"))
    // Without the IdP's tokens in the reply, the credential that was sent is the one to use.
    let bare = try FirebaseBackend(
      apiKey: "K", projectID: "p",
      transport: RecordingTransport([.status(200, #"{"needConfirmation":true,"email":"g@example.com"}"#)]),
      environment: [:])
    let confirm = try await #require(throws: AuthError.self) {
      _ = try await bare.signInWithIdp(IdpSignInRequest(credential: sent))
    }
    #expect(confirm.email == "g@example.com" && confirm.updatedCredential == sent)
  }

  /// As FirebaseAuth does with an Apple conflict: the updated credential carries the reply's
  /// `pendingToken` and no nonce, and signing in with it sends the pending token, so Firebase
  /// is not sent the same Apple token twice.
  @Test func anAppleConflictsCredentialCarriesThePendingTokenAndNoNonce() async throws {
    let sent = ProviderCredential.openID(.apple, idToken: "apple.id.token", rawNonce: "raw-nonce")
    let transport = RecordingTransport([
      .status(
        200,
        #"{"errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED","email":"tim@example.com","oauthIdToken":"apple.id.token","#
          + #""pendingToken":"PENDING-1"}"#),
      .status(200, #"{"localId":"uid1","idToken":"a.b.c","refreshToken":"r","expiresIn":"3600"}"#),
    ])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:])
    let error = try await #require(throws: AuthError.self) {
      _ = try await backend.signInWithIdp(IdpSignInRequest(credential: sent, idToken: "anonymous.id.token"))
    }
    let updated = try #require(error.updatedCredential)
    #expect(updated.pendingToken == "PENDING-1" && updated.rawNonce == nil)
    _ = try? await backend.signInWithIdp(IdpSignInRequest(credential: updated))
    let body = String(decoding: try #require(transport.requests.last).body, as: UTF8.self)
    #expect(body.contains(#""pendingToken":"PENDING-1""#))
    #expect(!body.contains("raw-nonce") && !body.contains("nonce%3D"))
  }

  @Test func aSecondFactorChallengeIsNotASignIn() async throws {
    let backend = try FirebaseBackend(
      apiKey: "K", projectID: "p",
      transport: RecordingTransport([
        .status(200, #"{"mfaPendingCredential":"X","mfaInfo":[{"mfaEnrollmentId":"P1","phoneInfo":"+*******6789"}]}"#)
      ]),
      environment: [:])
    let error = try await #require(throws: AuthError.self) {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "a@b.co", password: "pw-123456"))
    }
    #expect(error.code == .secondFactorRequired)
    #expect(error.message.contains("second factor"))
    #expect(
      error.secondFactor?.factors == [MultiFactorInfo(enrollmentID: "P1", kind: .phone, phoneNumber: "+*******6789")])
  }
}
