#if canImport(SwiftUI) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
  import AuthenticationServices
  import SignInKit
  import SignInKitFlows
  import SwiftUI

  // The overlay that declares SignInWithAppleButton; Xcode imports it by itself with the two
  // modules above, a plain swiftc only when asked.
  #if canImport(_AuthenticationServices_SwiftUI)
    import _AuthenticationServices_SwiftUI
  #endif

  /// Apple's own Sign in with Apple button (`SignInWithAppleButton`), black on light and white on
  /// dark as Apple's guidelines ask, wired to a ``SignInKitFlows/SignInFlow``: it sends the
  /// SHA-256 of a fresh nonce with the request, asks for the name and email, and hands Apple's
  /// answer to the flow, which signs in (or asks for a second factor, or shows a linking
  /// conflict). Closing Apple's sheet leaves the screen as it was, with no message.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  public struct AppleSignInButton: View {
    let flow: SignInFlow
    let label: SignInWithAppleButton.Label
    @State private var rawNonce = ""
    @Environment(\.colorScheme) private var colorScheme
    @Environment(\.signInTheme) private var theme

    public init(flow: SignInFlow, label: SignInWithAppleButton.Label = .signIn) {
      self.flow = flow
      self.label = label
    }

    public var body: some View {
      SignInWithAppleButton(label) { request in
        let raw = (try? AppleProvider.makeRawNonce()) ?? UUID().uuidString
        rawNonce = raw
        request.requestedScopes = [.fullName, .email]
        request.nonce = AppleProvider.hashedNonce(raw)
      } onCompletion: { result in
        let provider = Self.provider(for: result, rawNonce: rawNonce)
        Task { await flow.signIn(with: provider) }
      }
      .signInWithAppleButtonStyle(colorScheme == .dark ? .white : .black)
      .frame(minHeight: 44)
      .clipShape(RoundedRectangle(cornerRadius: theme.cornerRadius))
    }

    /// Apple's answer as a provider the flow signs in with: its identity token and the nonce it
    /// was asked with, or the error Apple gave.
    private static func provider(
      for result: Result<ASAuthorization, any Error>, rawNonce: String
    ) -> AppleProvider {
      let answer = Result<AppleProvider.Authorization, any Error> {
        switch result {
        case .success(let authorization):
          guard let credential = authorization.credential as? ASAuthorizationAppleIDCredential else {
            throw AppleProvider.error(forAuthorizationErrorCode: 1002)
          }
          return try AppleProvider.Authorization(
            identityTokenData: credential.identityToken, givenName: credential.fullName?.givenName,
            familyName: credential.fullName?.familyName, authorizationCodeData: credential.authorizationCode,
            userIdentifier: credential.user, email: credential.email)
        case .failure(let error):
          let code = (error as NSError).domain == ASAuthorizationError.errorDomain ? (error as NSError).code : 1000
          throw AppleProvider.error(forAuthorizationErrorCode: code)
        }
      }
      switch answer {
      case .success(let authorization):
        return AppleProvider(
          identityToken: authorization.identityToken, rawNonce: rawNonce, givenName: authorization.givenName,
          familyName: authorization.familyName, authorizationCode: authorization.authorizationCode,
          credentialState: SystemAppleIDCredentialState())
      case .failure(let error):
        return AppleProvider { _ in throw error }
      }
    }
  }
#endif
