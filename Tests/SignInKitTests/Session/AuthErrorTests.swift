import Testing

@testable import SignInKit

@Suite struct AuthErrorTests {
  @Test func transientCodesKeepTheSessionAndTerminalOnesEndIt() {
    for code in [AuthError.Code.network, .timeout, .unavailable, .tooManyRequests] {
      #expect(code.isTransient)
      #expect(!code.endsSession)
    }
    for code in AuthError.Code.allTerminal {
      #expect(code.endsSession)
      #expect(!code.isTransient)
    }
    for code in [AuthError.Code.wrongPassword, .requiresRecentLogin, .storage, .cancelled] {
      #expect(!code.isTransient)
      #expect(!code.endsSession)
    }
  }

  @Test func foreignErrorsAreWrappedWithAStableCode() {
    #expect(AuthError.wrapping(CancellationError()).code == .cancelled)
    struct Odd: Error {}
    #expect(AuthError.wrapping(Odd()).code == .internal)
    let original = AuthError(.weakPassword, "too short", serverMessage: "WEAK_PASSWORD : x")
    #expect(AuthError.wrapping(original) == original)
  }

  @Test func descriptionNamesTheCodeAndTheAdvice() {
    let error = AuthError(.noCurrentUser, "Sign in first.")
    #expect(error.description == "no-current-user: Sign in first.")
    #expect(error.localizedDescription == "Sign in first.")
  }
}

@Suite struct FormEncodingTests {
  @Test func percentEncodesEverythingOutsideTheUnreservedSet() {
    let credential = ProviderCredential(providerID: .apple, idToken: "a+b/c=", rawNonce: "n n&")
    #expect(credential.postBody == "id_token=a%2Bb%2Fc%3D&providerId=apple.com&nonce=n%20n%26")
  }
}
