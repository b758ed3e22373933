import Foundation
import SignInFoundation
import SignInKitTesting
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

extension AuthErrorTests {
  @Test func aRedirectsErrorDescriptionCannotRetitleTheTerminal() async throws {
    // What `?error=invalid_request&error_description=bad%1B]0;pwned%07` decodes to.
    let query = ["state": "S", "error": "invalid_request", "error_description": "bad\u{1B}]0;pwned\u{07} request"]
    let issuer = TestIssuer()
    let client = OIDCClient(metadata: issuer.metadata, clientID: issuer.clientID, transport: RecordingTransport())
    let error = try await #require(throws: AuthError.self) {
      _ = try await OpenIDConnectProvider.exchange(
        query, expectedState: "S", client: client, redirectURI: URL(string: "http://127.0.0.1:1/callback")!,
        pkce: try PKCE.generate())
    }
    #expect(!error.message.contains("\u{1B}"))
    #expect(!error.message.contains("\u{07}"))
    #expect(error.message.contains("bad]0;pwned request"))
  }

  @Test func serverMessagesLoseTheirControlCharacters() {
    let error = AuthError(.internal, "a\u{1B}[2Jb\u{9B}c\nd", serverMessage: "E\u{07}RR")
    #expect(error.message == "a[2Jbc d")
    #expect(error.serverMessage == "ERR")
  }
}

@Suite struct FormEncodingTests {
  @Test func percentEncodesEverythingOutsideTheUnreservedSet() {
    let credential = ProviderCredential(providerID: .apple, idToken: "a+b/c=", rawNonce: "n n&")
    #expect(credential.postBody == "id_token=a%2Bb%2Fc%3D&providerId=apple.com&nonce=n%20n%26")
  }

}

extension AuthErrorTests {
  @Test func aFileThatFailsIsAStorageErrorWithTheFilesMessage() {
    let error = #expect(throws: AuthError.self) {
      try AuthError.storage { () throws(FileError) in throw FileError("The saved sign-in at /x could not be read.") }
    }
    #expect(error?.code == .storage)
    #expect(error?.message == "The saved sign-in at /x could not be read.")
    #expect(AuthError.wrapping(FileError("disk full")).code == .storage)
  }
}
