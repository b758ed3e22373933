import Foundation
import SignInCrypto
import SignInKitTesting
import Testing

@testable import SignInKit

/// Passwords and tokens never appear in descriptions, mirrors or error messages.
@Suite struct SecretsTests {
  static let secrets = ["hunter2-password", "eyJ.id-token.sig", "refresh-token-xyz", "raw-nonce-1"]

  static func rendered(_ value: Any) -> String {
    var dumped = ""
    dump(value, to: &dumped)
    return "\(value) \(String(reflecting: value)) \(dumped)"
  }

  @Test func requestsAndResponsesRedactSecrets() {
    let credential = ProviderCredential(
      providerID: .apple, idToken: "eyJ.id-token.sig", accessToken: "refresh-token-xyz",
      rawNonce: "raw-nonce-1")
    let tokens = IssuedTokens(
      idToken: "eyJ.id-token.sig", refreshToken: "refresh-token-xyz", expiresIn: .seconds(3600))
    let values: [Any] = [
      SignUpRequest(email: "a@b.co", password: "hunter2-password", idToken: "eyJ.id-token.sig"),
      PasswordSignInRequest(email: "a@b.co", password: "hunter2-password"),
      IdpSignInRequest(credential: credential, idToken: "eyJ.id-token.sig"),
      RefreshTokenRequest(refreshToken: "refresh-token-xyz"),
      LookupRequest(idToken: "eyJ.id-token.sig"),
      DeleteAccountRequest(idToken: "eyJ.id-token.sig"),
      UpdateAccountRequest(idToken: "eyJ.id-token.sig", password: "hunter2-password"),
      OobCodeRequest.verifyEmail(idToken: "eyJ.id-token.sig"),
      ResetPasswordRequest(oobCode: "c", newPassword: "hunter2-password"),
      credential, tokens,
      SignInResponse(localID: "u", tokens: tokens, isNewUser: true),
      RefreshResponse(userID: "u", tokens: tokens),
      UpdateAccountResponse(account: AccountInfo(localID: "u"), tokens: tokens),
      StoredSession(
        user: User(uid: "u"), idToken: "eyJ.id-token.sig", refreshToken: "refresh-token-xyz",
        expiresAt: Date(), signInProvider: .password),
    ]
    for value in values {
      let text = Self.rendered(value)
      for secret in Self.secrets {
        #expect(!text.contains(secret), "\(type(of: value)) shows a secret: \(text)")
      }
    }
  }

  @Test func everyTypeThatHoldsASecretRedactsItsMirror() throws {
    let key = try RSAPrivateKey.generate()
    let keyText = try key.pem
    let pkce = try PKCE.generate()
    let values: [(Any, [String])] = [
      (
        OAuthTokens(
          idToken: "eyJ.id-token.sig", accessToken: "access-token-abc", refreshToken: "refresh-token-xyz",
          expiresIn: .seconds(3600)),
        ["eyJ.id-token.sig", "access-token-abc", "refresh-token-xyz"]
      ),
      (pkce, [pkce.verifier]),
      (
        DeviceAuthorization(
          deviceCode: "device-code-secret", userCode: "ABCD-EFGH", verificationURI: URL(string: "https://x.example")!,
          expiresIn: .seconds(600)),
        ["device-code-secret"]
      ),
      (AppleProvider.Authorization(identityToken: "eyJ.apple-token.sig", givenName: "Ada"), ["eyJ.apple-token.sig"]),
      (
        OpenIDConnectProvider.Configuration.google(clientID: "client", clientSecret: "GOCSPX-client-secret"),
        ["GOCSPX-client-secret"]
      ),
      // A default mirror would dump the DER byte by byte ("der: 1218 elements").
      (key, [String(keyText.split(separator: "\n")[1]), "elements"]),
    ]
    for (value, secrets) in values {
      let text = Self.rendered(value)
      for secret in secrets {
        #expect(!text.contains(secret), "\(type(of: value)) shows a secret: \(text)")
      }
    }
    // What is meant to be seen still is.
    #expect(Self.rendered(values[2].0).contains("ABCD-EFGH"))
  }

  @Test func backendCallLogAndErrorsHoldNoSecrets() async throws {
    let harness = Harness()
    _ = try await harness.auth.signUp(email: "ada@example.com", password: "hunter2-password")
    let token = try await harness.auth.idToken(forceRefresh: true)
    try await harness.auth.updatePassword("hunter2-password-2")
    await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "ada@example.com", password: "hunter2-password")
    }
    let log = harness.backend.calls.map(\.description).joined(separator: "\n")
    let message = await harness.stateStore { $0.errorMessage } ?? ""
    let state = "\(await harness.shownState())"
    for text in [log, message, state] {
      #expect(!text.contains("hunter2"))
      #expect(!text.contains(token))
    }
  }
}
