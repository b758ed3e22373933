import SignInKit

extension AuthBackendCall {
  /// Makes this call once on `backend` with placeholder requests and ignores the answer: for a
  /// test that a decorator (``AuthBackendDecorator``) forwards every call, with a
  /// ``ScriptedBackend`` underneath to record what arrived.
  ///
  /// ```swift
  /// for call in AuthBackendCall.allCases {
  ///   let scripted = ScriptedBackend()
  ///   await call.makeOnce(on: MyDecorator(wrapped: scripted))
  ///   #expect(scripted.calls.map(\.call) == [call])
  /// }
  /// ```
  public func makeOnce(on backend: any AuthBackend) async {
    let email = "ada@example.com"
    switch self {
    case .signUp: _ = try? await backend.signUp(SignUpRequest(email: email, password: "correct horse"))
    case .signInWithPassword:
      _ = try? await backend.signInWithPassword(PasswordSignInRequest(email: email, password: "correct horse"))
    case .signInWithIdp:
      _ = try? await backend.signInWithIdp(
        IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: "a.b.c")))
    case .signInWithCustomToken: _ = try? await backend.signInWithCustomToken(CustomTokenSignInRequest(token: "t"))
    case .signInWithEmailLink:
      _ = try? await backend.signInWithEmailLink(EmailLinkSignInRequest(email: email, oobCode: "c"))
    case .refresh: _ = try? await backend.refresh(RefreshTokenRequest(refreshToken: "r"))
    case .lookup: _ = try? await backend.lookup(LookupRequest(idToken: "i"))
    case .update: _ = try? await backend.update(UpdateAccountRequest(idToken: "i", displayName: "Ada"))
    case .delete: try? await backend.delete(DeleteAccountRequest(idToken: "i"))
    case .sendOobCode: _ = try? await backend.sendOobCode(.passwordReset(email: email))
    case .resetPassword: _ = try? await backend.resetPassword(ResetPasswordRequest(oobCode: "c"))
    case .secondFactor: _ = try? await backend.secondFactor(.startTOTPEnrollment(idToken: "i"))
    case .passkey: _ = try? await backend.passkey(.startSignIn)
    case .passwordPolicy: _ = try? await backend.passwordPolicy()
    case .signInMethods: _ = try? await backend.signInMethods(forEmail: email)
    case .revokeRefreshToken: try? await backend.revokeRefreshToken(RefreshTokenRequest(refreshToken: "r"))
    case .revokeToken: try? await backend.revokeToken(.apple(authorizationCode: "c", idToken: "i"))
    case .sendPhoneCode: _ = try? await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
    case .signInWithPhoneNumber:
      _ = try? await backend.signInWithPhoneNumber(PhoneSignInRequest(verificationID: "v", code: "123456"))
    }
  }
}
