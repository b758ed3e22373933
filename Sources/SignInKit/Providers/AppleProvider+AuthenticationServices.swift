#if canImport(AuthenticationServices) && !os(watchOS)
  import AuthenticationServices
  import Foundation

  extension AppleProvider {
    /// Sign in with Apple through the system sheet (`ASAuthorizationController`), asking for the
    /// name and email, with the hashed nonce in the request.
    ///
    /// - Parameter anchor: the window to present the sheet over.
    /// - Cancellation: cancelling the calling task closes the sheet; the call throws
    ///   ``AuthError/Code/cancelled``.
    @MainActor public static func systemSheet(
      presentingFrom anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) -> AppleProvider {
      AppleProvider { hashedNonce in
        try await AppleIDSheet.authorize(hashedNonce: hashedNonce, anchor: anchor)
      }
    }
  }

  /// One `ASAuthorizationController` request, bridged to async.
  @MainActor
  final class AppleIDSheet: NSObject, ASAuthorizationControllerDelegate,
    ASAuthorizationControllerPresentationContextProviding
  {
    private let anchor: @MainActor () -> ASPresentationAnchor
    private var continuation: CheckedContinuation<AppleProvider.Authorization, any Error>?

    private init(anchor: @escaping @MainActor () -> ASPresentationAnchor) { self.anchor = anchor }

    static func authorize(
      hashedNonce: String, anchor: @escaping @MainActor () -> ASPresentationAnchor
    ) async throws -> AppleProvider.Authorization {
      let request = ASAuthorizationAppleIDProvider().createRequest()
      request.requestedScopes = [.fullName, .email]
      request.nonce = hashedNonce
      let controller = ASAuthorizationController(authorizationRequests: [request])
      let sheet = AppleIDSheet(anchor: anchor)
      controller.delegate = sheet
      controller.presentationContextProvider = sheet
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          sheet.continuation = continuation
          controller.performRequests()
        }
      } onCancel: {
        Task { @MainActor in controller.cancel() }
      }
    }

    func authorizationController(
      controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {
      let result = Result<AppleProvider.Authorization, any Error> {
        guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential else {
          throw AppleProvider.error(forAuthorizationErrorCode: 1002)
        }
        return try AppleProvider.Authorization(
          identityTokenData: credential.identityToken, givenName: credential.fullName?.givenName,
          familyName: credential.fullName?.familyName)
      }
      continuation?.resume(with: result)
      continuation = nil
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
      let code = (error as NSError).domain == ASAuthorizationError.errorDomain ? (error as NSError).code : 1000
      continuation?.resume(throwing: AppleProvider.error(forAuthorizationErrorCode: code))
      continuation = nil
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
      anchor()
    }
  }
#endif
