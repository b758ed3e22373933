import Testing

@testable import SignInKit

/// What the platform authenticator's `ASAuthorizationError` codes become, checked here where
/// there is no AuthenticationServices: each an error a person (or developer) can act on.
@Suite struct PasskeyAuthorizationErrorTests {
  @Test(arguments: [
    (1001, "", AuthError.Code.userCancelled, "closed"),
    (1005, "", .noPasskey, "no passkey for example.com"),
    (1006, "", .passkeyRefused, "already holds"),
    (
      1004, "Application with identifier X is not associated with domain example.com", .relyingPartyMismatch,
      "webcredentials:example.com"
    ),
    (1004, "The operation couldn't be completed.", .passkeyRefused, "code 1004"),
    (1002, "", .passkeyRefused, "unusable"),
    (1000, "", .passkeyRefused, "code 1000"),
    (1099, "", .passkeyRefused, "code 1099"),
  ])
  func eachCodeSaysWhatToDo(code: Int, description: String, expected: AuthError.Code, words: String) {
    let error = PasskeyAuthorizationError.error(forCode: code, description: description, relyingPartyID: "example.com")
    #expect(error.code == expected)
    #expect(error.message.contains(words), "\(error.message)")
  }
}
