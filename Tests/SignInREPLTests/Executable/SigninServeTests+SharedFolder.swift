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
