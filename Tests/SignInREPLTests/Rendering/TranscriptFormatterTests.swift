import Foundation
import SignInKit
import Testing

@testable import SignInREPL

@Suite struct TranscriptFormatterTests {
  static let ada = User(
    uid: "u1", email: "ada@example.com",
    providers: [ProviderInfo(providerID: .password, rawID: "ada@example.com")])

  @Test func aServerAuthCodeIsShownByLengthUnlessRevealed() {
    let code = "4/0AfJohXn-SERVER-CODE"
    let hidden = TranscriptFormatter.serverAuthCode(code, for: "web-client", reveal: false)
    #expect(hidden == "server auth code for web-client: 22 characters (add --reveal to show it)")
    #expect(!hidden.contains(code))
    #expect(TranscriptFormatter.serverAuthCode(code, for: "web-client", reveal: true).hasSuffix(code))
    #expect(TranscriptFormatter.serverAuthCode(nil, for: "web-client", reveal: true).contains("returned none"))
  }

  @Test func providersAreNamedAsTheirButtonsSayThem() {
    #expect(TranscriptFormatter.name(of: ProviderID(rawValue: "microsoft.com")) == "Microsoft")
    #expect(TranscriptFormatter.name(of: ProviderID(rawValue: "github.com")) == "GitHub")
    #expect(TranscriptFormatter.name(of: .google) == "Google")
    #expect(TranscriptFormatter.name(of: ProviderID(rawValue: "oidc.acme")) == "oidc.acme")
  }

  @Test func statesReadAsPlainWords() {
    #expect(TranscriptFormatter.line(for: .restoring) == "restoring the previous sign-in…")
    #expect(TranscriptFormatter.line(for: .signingIn(.google)) == "signing in with Google…")
    #expect(TranscriptFormatter.line(for: .signedIn(Self.ada, .fresh)) == "signed in as ada@example.com (u1)")
    #expect(TranscriptFormatter.line(for: .signedIn(Self.ada, .stale)).contains("offline"))
    #expect(TranscriptFormatter.line(for: .signedOut(.userRequested)) == "signed out (you signed out)")
    #expect(
      TranscriptFormatter.line(for: .signedOut(.refreshRejected(.invalidRefreshToken)))
        .contains("sign in again"))
  }

  @Test func eventsSayWhatHappenedAndErrorsWhatToDo() {
    #expect(
      TranscriptFormatter.line(for: .signedIn(Self.ada, isNewUser: true))
        == "signed in as ada@example.com (u1) (new account)")
    #expect(TranscriptFormatter.line(for: .tokenRefreshed) == "token refreshed")
    #expect(TranscriptFormatter.line(for: .initialState(.restoring)) == nil)
    let error = AuthError(.wrongPassword, "The password is wrong. Try again or reset it.")
    #expect(
      TranscriptFormatter.line(for: .failed(error))
        == "error (wrong-password): The password is wrong. Try again or reset it.")
  }

  @Test func jsonLinesParseBackAndCarryNoSecrets() throws {
    let line = TranscriptFormatter.json(for: .signedIn(Self.ada, .refreshing))
    #expect(!line.contains("\n"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["type"] as? String == "state")
    #expect(object["state"] as? String == "signedIn")
    #expect(object["health"] as? String == "refreshing")
    let user = try #require(object["user"] as? [String: Any])
    #expect(user["email"] as? String == "ada@example.com")
    #expect(user["providers"] as? [String] == ["password"])
    let error = TranscriptFormatter.json(for: AuthError(.network, "Offline; try again."))
    #expect(error == #"{"code":"network","message":"Offline; try again.","type":"error"}"#)
  }

  @Test func anonymousUsersAreNamedAsSuch() {
    #expect(
      TranscriptFormatter.line(for: .signedIn(User(uid: "a1"), .fresh))
        == "signed in as an anonymous user (a1)")
  }
}
