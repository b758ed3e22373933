import Foundation
import SignInKit
import Testing

/// Two `signin serve` processes on one data folder behave as one server (review N8): the login
/// throttle counts every wrong password wherever it was sent, and a texted code signs in once
/// even when both are asked at the same moment.
extension SigninServeTests {
  @Test func twoServersOnOneFolderThrottleAsOneAndSpendACodeOnce() async throws {
    let data = SigninProcessTests.Scratch()
    let arguments = ["--data-dir", data.url.path, "--hash-cost", "test"]
    let first = try await Server(arguments)
    let second = try await Server(arguments)
    let backends = [
      try FirebaseBackend.emulator(host: first.host, projectID: "signinkit-local"),
      try FirebaseBackend.emulator(host: second.host, projectID: "signinkit-local"),
    ]
    _ = try await backends[0].signUp(SignUpRequest(email: "ada@example.com", password: "hunter2-pass"))
    for attempt in 0..<5 {
      await #expect(throws: AuthError.self) {
        try await backends[attempt % 2].signInWithPassword(
          PasswordSignInRequest(email: "ada@example.com", password: "guess-\(attempt)"))
      }
    }
    // Five wrong passwords between the two: even the right one waits now, at either server.
    for backend in backends {
      let waits = await #expect(throws: AuthError.self) {
        try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "hunter2-pass"))
      }
      #expect(waits?.code == .tooManyRequests, "\(String(describing: waits))")
    }

    var signedIn = 0
    for round in 0..<10 {
      let number = "+1555555\(String(format: "%04d", 100 + round))"
      let sent = try await backends[0].sendPhoneCode(PhoneCodeRequest(phoneNumber: number))
      let code = try await Self.textedCode(at: first.host, for: sent.verificationID)
      let request = PhoneSignInRequest(verificationID: sent.verificationID, code: code)
      async let viaFirst = try? backends[0].signInWithPhoneNumber(request)
      async let viaSecond = try? backends[1].signInWithPhoneNumber(request)
      let outcomes = await [viaFirst, viaSecond]
      signedIn += outcomes.compactMap { $0 }.count
      #expect(
        outcomes.compactMap { $0 }.count == 1,
        "round \(round): the code signed in \(outcomes.compactMap { $0 }.count) times")
    }
    #expect(signedIn == 10)
    #expect(try await first.stop().0 == 0)
    #expect(try await second.stop().0 == 0)
  }

  /// Review N9: tenants and provider configurations live in the project's database, so two
  /// servers on one folder share them: what one makes, locks down or deletes, the other sees on
  /// its next call, and neither comes back from a restart with every method on.
  @Test func twoServersOnOneFolderShareTenantsAndProviderConfigs() async throws {
    let data = SigninProcessTests.Scratch()
    let arguments = ["--data-dir", data.url.path, "--hash-cost", "test"]
    let first = try await Server(arguments)
    let second = try await Server(arguments)
    let base = "/identitytoolkit.googleapis.com/v2/projects/signinkit-local"

    let made = try await Self.admin(
      "POST", first.host, base + "/tenants", #"{"displayName":"locked","allowPasswordSignup":false}"#)
    let tenantID = try #require(made["tenantId"] as? String, "\(made)")
    _ = try await Self.admin(
      "POST", first.host, base + "/oauthIdpConfigs?oauthIdpConfigId=oidc.okta",
      #"{"clientId":"c","issuer":"https://okta.example","enabled":true}"#)

    // The second server sees both, and the tenant as locked down as it was made.
    let listed = try await Self.admin("GET", second.host, base + "/tenants", nil)
    let tenants = listed["tenants"] as? [[String: Any]] ?? []
    #expect(tenants.map { $0["tenantId"] as? String } == [tenantID])
    #expect(tenants.first?["allowPasswordSignup"] as? Bool == false)
    let config = try await Self.admin("GET", second.host, base + "/oauthIdpConfigs/oidc.okta", nil)
    #expect(config["issuer"] as? String == "https://okta.example")
    let refused = try await Self.client(
      second.host, "accounts:signUp", #"{"email":"a@example.com","password":"hunter2-pass","tenantId":"\#(tenantID)"}"#)
    #expect(refused.status == 400, "the lock holds at the other server too: \(refused.body)")

    // A change at the second is read by the first; a delete at the first is seen by the second.
    _ = try await Self.admin(
      "PATCH", second.host, base + "/tenants/\(tenantID)?updateMask=displayName", #"{"displayName":"renamed"}"#)
    #expect(
      try await Self.admin("GET", first.host, base + "/tenants/\(tenantID)", nil)["displayName"] as? String == "renamed"
    )
    _ = try await Self.admin("DELETE", first.host, base + "/oauthIdpConfigs/oidc.okta", nil)
    let gone = try await Self.admin("GET", second.host, base + "/oauthIdpConfigs/oidc.okta", nil)
    #expect((gone["error"] as? [String: Any])?["message"] as? String == "CONFIGURATION_NOT_FOUND : no oidc.okta")

    // After a restart of both, the tenant is still there and still locked.
    #expect(try await first.stop().0 == 0)
    #expect(try await second.stop().0 == 0)
    let again = try await Server(arguments)
    let kept = try await Self.admin("GET", again.host, base + "/tenants/\(tenantID)", nil)
    #expect(kept["allowPasswordSignup"] as? Bool == false && kept["displayName"] as? String == "renamed")
    #expect(try await again.stop().0 == 0)
  }

  /// An administrator's call to the server at `host`, its JSON reply (an error's too).
  static func admin(_ method: String, _ host: String, _ path: String, _ body: String?) async throws -> [String: Any] {
    var request = HTTPRequest(
      method: method, url: URL(string: "http://\(host)\(path)")!,
      headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")])
    request.body = Data((body ?? "").utf8)
    let reply = try await URLSessionTransport().send(request)
    return try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:]
  }

  /// A client's call `v1/NAME` to the server at `host`.
  static func client(_ host: String, _ name: String, _ body: String) async throws -> (status: Int, body: String) {
    var request = HTTPRequest(
      method: "POST", url: URL(string: "http://\(host)/identitytoolkit.googleapis.com/v1/\(name)?key=k")!,
      headers: [("Content-Type", "application/json")])
    request.body = Data(body.utf8)
    let reply = try await URLSessionTransport().send(request)
    return (reply.status, String(decoding: reply.body, as: UTF8.self))
  }

  /// The code the server at `host` texted for `sessionInfo`, from the emulator's list.
  static func textedCode(at host: String, for sessionInfo: String) async throws -> String {
    let url = URL(string: "http://\(host)/emulator/v1/projects/signinkit-local/verificationCodes")!
    let reply = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: url))
    let json = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
    let codes = json?["verificationCodes"] as? [[String: Any]] ?? []
    let code = codes.first { $0["sessionInfo"] as? String == sessionInfo }?["code"] as? String
    return try #require(code, "\(sessionInfo) not in \(String(decoding: reply.body, as: UTF8.self))")
  }
}
