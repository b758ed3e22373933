#if canImport(AuthenticationServices) && !os(watchOS)
  import AuthenticationServices
  import Foundation
  import SignInConcurrency

  extension AppleProvider {
    /// Sign in with Apple through the system sheet (`ASAuthorizationController`), asking for the
    /// name and email, with the hashed nonce in the request. Its credential state is asked of
    /// `ASAuthorizationAppleIDProvider` (`SystemAppleIDCredentialState`).
    ///
    /// - Parameter anchor: the window to present the sheet over.
    /// - Cancellation: cancelling the calling task closes the sheet; the call throws
    ///   ``AuthError/Code/cancelled``.
    @MainActor public static func systemSheet(
      presentingFrom anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) -> AppleProvider {
      AppleProvider(credentialState: SystemAppleIDCredentialState()) { hashedNonce in
        try await AppleIDSheet.authorize(hashedNonce: hashedNonce, anchor: anchor)
      }
    }
  }

  /// One `ASAuthorizationController` request, bridged to async. The controller and its
  /// presentation stay on the main actor; the delegate's answer goes through a
  /// ``CallbackContinuation``, so it is safe on whatever thread the system calls it.
  @MainActor
  final class AppleIDSheet: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding
  {
    private let anchor: @MainActor () -> ASPresentationAnchor
    private let answer = CallbackContinuation<AppleProvider.Authorization> {
      AppleProvider.error(forAuthorizationErrorCode: 1001)
    }
    private var controller: ASAuthorizationController?

    private init(anchor: @escaping @MainActor () -> ASPresentationAnchor) { self.anchor = anchor }

    static func authorize(
      hashedNonce: String, anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) async throws -> AppleProvider.Authorization {
      let request = ASAuthorizationAppleIDProvider().createRequest()
      request.requestedScopes = [.fullName, .email]
      request.nonce = hashedNonce
      let sheet = AppleIDSheet(anchor: anchor)
      let controller = ASAuthorizationController(authorizationRequests: [request])
      controller.delegate = sheet
      controller.presentationContextProvider = sheet
      sheet.controller = controller
      defer { sheet.controller = nil }
      return try await sheet.answer.value {
        controller.performRequests()
      } onCancel: {
        Task { @MainActor in sheet.controller?.cancel() }
      }
    }

    nonisolated func authorizationController(
      controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
      let result = Result<AppleProvider.Authorization, any Error> {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential else {
          throw AppleProvider.error(forAuthorizationErrorCode: 1002)
        }
        return try AppleProvider.Authorization(
          identityTokenData: credential.identityToken, givenName: credential.fullName?.givenName,
          familyName: credential.fullName?.familyName, authorizationCodeData: credential.authorizationCode,
          userIdentifier: credential.user, email: credential.email,
          realUserStatus: AppleProvider.RealUserStatus(rawValue: credential.realUserStatus.rawValue))
      }
      answer.resume(with: result)
    }

    nonisolated func authorizationController(
      controller: ASAuthorizationController, didCompleteWithError error: any Error
    ) {
      let code = (error as NSError).domain == ASAuthorizationError.errorDomain ? (error as NSError).code : 1000
      answer.resume(with: .failure(AppleProvider.error(forAuthorizationErrorCode: code)))
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
      anchor()
    }
  }
#endif
