#if canImport(AuthenticationServices) && !os(watchOS)
  import AuthenticationServices
  import Foundation
  import SignInConcurrency

  /// Passkeys on Apple platforms: `ASAuthorizationPlatformPublicKeyCredentialProvider`'s
  /// registration and assertion requests in the system sheet, or, for a sign-in with
  /// ``PasskeyAssertionRequest/Presentation/autoFill``, offered in the QuickType bar of a text
  /// field whose `textContentType` is `.username`.
  ///
  /// The app must be associated with the relying party's domain: add
  /// `webcredentials:RELYING_PARTY_ID` to its Associated Domains entitlement, and serve
  /// `https://RELYING_PARTY_ID/.well-known/apple-app-site-association` listing the app's
  /// `TEAMID.bundle.id` under `webcredentials.apps`.
  ///
  /// - Concurrency: `Sendable`; the requests are made and presented on the main actor.
  public struct PlatformPasskeyAuthenticator: PasskeyAuthenticator {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

    /// - Parameter anchor: the window to present the sheet over, as for Sign in with Apple.
    public init(presentingFrom anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
      self.anchor = anchor
    }

    public func register(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistration {
      try await PasskeySheet.register(request, anchor: anchor)
    }

    public func authenticate(_ request: PasskeyAssertionRequest) async throws -> PasskeyAssertion {
      try await PasskeySheet.authenticate(request, anchor: anchor)
    }
  }

  /// One passkey request of `ASAuthorizationController`, bridged to async as ``AppleIDSheet``
  /// is: the controller stays on the main actor, the delegate's answer goes through a
  /// ``CallbackContinuation``.
  @MainActor
  final class PasskeySheet: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding
  {
    private enum Answer: Sendable {
      case registration(PasskeyRegistration)
      case assertion(PasskeyAssertion)
    }

    private let anchor: @MainActor () -> ASPresentationAnchor
    private let relyingPartyID: String
    private let answer: CallbackContinuation<Answer>
    private var controller: ASAuthorizationController?

    private init(relyingPartyID: String, anchor: @escaping @MainActor () -> ASPresentationAnchor) {
      self.anchor = anchor
      self.relyingPartyID = relyingPartyID
      answer = CallbackContinuation { PasskeyAuthorizationError.error(forCode: 1001, relyingPartyID: relyingPartyID) }
    }

    static func register(
      _ request: PasskeyRegistrationRequest, anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) async throws -> PasskeyRegistration {
      let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyID)
      let registration = provider.createCredentialRegistrationRequest(
        challenge: request.challenge, name: request.userName, userID: request.userID)
      registration.userVerificationPreference = request.requiresUserVerification ? .required : .preferred
      registration.excludedCredentials = request.excludedCredentialIDs.map {
        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
      }
      guard case .registration(let made) = try await run(registration, at: request.relyingPartyID, anchor: anchor)
      else { throw PasskeyAuthorizationError.error(forCode: 1002, relyingPartyID: request.relyingPartyID) }
      return made
    }

    static func authenticate(
      _ request: PasskeyAssertionRequest, anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) async throws -> PasskeyAssertion {
      let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: request.relyingPartyID)
      let assertion = provider.createCredentialAssertionRequest(challenge: request.challenge)
      assertion.userVerificationPreference = request.requiresUserVerification ? .required : .preferred
      assertion.allowedCredentials = request.allowedCredentialIDs.map {
        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
      }
      guard
        case .assertion(let signed) = try await run(
          assertion, at: request.relyingPartyID, autoFill: request.presentation == .autoFill, anchor: anchor)
      else { throw PasskeyAuthorizationError.error(forCode: 1002, relyingPartyID: request.relyingPartyID) }
      return signed
    }

    private static func run(
      _ request: ASAuthorizationRequest, at relyingPartyID: String, autoFill: Bool = false,
      anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) async throws -> Answer {
      let sheet = PasskeySheet(relyingPartyID: relyingPartyID, anchor: anchor)
      let controller = ASAuthorizationController(authorizationRequests: [request])
      controller.delegate = sheet
      controller.presentationContextProvider = sheet
      sheet.controller = controller
      defer { sheet.controller = nil }
      return try await sheet.answer.value {
        #if os(iOS) || os(visionOS)
          if autoFill {
            controller.performAutoFillAssistedRequests()
            return
          }
        #endif
        controller.performRequests()
      } onCancel: {
        Task { @MainActor in sheet.controller?.cancel() }
      }
    }

    nonisolated func authorizationController(
      controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
      switch authorization.credential {
      case let made as ASAuthorizationPlatformPublicKeyCredentialRegistration:
        answer.resume(
          with: .success(
            .registration(
              PasskeyRegistration(
                credentialID: made.credentialID, clientDataJSON: made.rawClientDataJSON,
                attestationObject: made.rawAttestationObject ?? Data(), transports: ["internal", "hybrid"]))))
      case let signed as ASAuthorizationPlatformPublicKeyCredentialAssertion:
        answer.resume(
          with: .success(
            .assertion(
              PasskeyAssertion(
                credentialID: signed.credentialID, clientDataJSON: signed.rawClientDataJSON,
                authenticatorData: signed.rawAuthenticatorData, signature: signed.signature,
                userHandle: signed.userID))))
      default:
        answer.resume(with: .failure(AuthError(.passkeyRefused, "The passkey sheet answered with another credential.")))
      }
    }

    nonisolated func authorizationController(
      controller: ASAuthorizationController, didCompleteWithError error: any Error
    ) {
      let error = error as NSError
      let code = error.domain == ASAuthorizationError.errorDomain ? error.code : 1000
      answer.resume(
        with: .failure(
          PasskeyAuthorizationError.error(
            forCode: code, description: error.localizedDescription, relyingPartyID: relyingPartyID)))
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
      anchor()
    }
  }
#endif
