import Foundation
import SignInCrypto
import SignInKit
import SignInKitEmbedded
import SignInTestSupport
import Testing

/// Two relying parties we did not write check what the development authenticator makes:
/// py_webauthn and python-fido2's `Fido2Server` (pinned by `.ci/run`, driven by
/// `Tests/Peers/webauthn_rp_peer.py` one ceremony at a time), each verifying a registration and
/// then two assertions, the second with the counter moved on.
enum WebAuthnPeer {
  static let python = ProcessInfo.processInfo.environment["SIGNINKIT_PEER_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Peers/webauthn_rp_peer.py")
}

@Suite(
  .timeLimit(.minutes(3)),
  .enabled(
    if: WebAuthnPeer.python != nil,
    "no WebAuthn peers: set SIGNINKIT_PEER_PYTHON to a Python with webauthn and fido2 (bash .ci/run makes one)"))
struct WebAuthnPeerTests {
  /// The peer process, spoken to a line at a time.
  final class Peer: Sendable {
    let process = Process()
    let input = Pipe()
    let output = Pipe()

    init() throws {
      process.executableURL = URL(fileURLWithPath: WebAuthnPeer.python!)
      process.arguments = [WebAuthnPeer.script.path]
      process.standardInput = input
      process.standardOutput = output
      try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// Sends `request` and waits for the reply line (the peer answers each request once).
    func ask(_ request: [String: Any]) async throws -> [String: Any] {
      var line = try JSONSerialization.data(withJSONObject: request)
      line.append(0x0a)
      input.fileHandleForWriting.write(line)
      let handle = output.fileHandleForReading
      let reply = try await runBlocking { () -> Data in
        var bytes = Data()
        while true {
          let byte = try handle.read(upToCount: 1) ?? Data()
          if byte.isEmpty || byte == Data([0x0a]) { return bytes }
          bytes.append(byte)
        }
      }
      return try JSONSerialization.jsonObject(with: reply) as? [String: Any] ?? [:]
    }
  }

  /// WebAuthn's JSON for a registration, as a browser hands it to a relying party.
  static func json(_ registration: PasskeyRegistration) -> [String: Any] {
    let id = Base64URL.encode(Array(registration.credentialID))
    return [
      "id": id, "rawId": id, "type": "public-key",
      "response": [
        "clientDataJSON": Base64URL.encode(Array(registration.clientDataJSON)),
        "attestationObject": Base64URL.encode(Array(registration.attestationObject)),
      ],
    ]
  }

  static func json(_ assertion: PasskeyAssertion) -> [String: Any] {
    let id = Base64URL.encode(Array(assertion.credentialID))
    return [
      "id": id, "rawId": id, "type": "public-key",
      "response": [
        "clientDataJSON": Base64URL.encode(Array(assertion.clientDataJSON)),
        "authenticatorData": Base64URL.encode(Array(assertion.authenticatorData)),
        "signature": Base64URL.encode(Array(assertion.signature)),
        "userHandle": Base64URL.encode(Array(assertion.userHandle ?? Data())),
      ],
    ]
  }

  @Test(arguments: [
    ("py_webauthn", DevelopmentPasskeyAuthenticator.Attestation.none),
    ("py_webauthn", .packedSelf), ("fido2", .none), ("fido2", .packedSelf),
  ])
  func anIndependentRelyingPartyVerifiesTheDevelopmentAuthenticator(
    library: String, attestation: DevelopmentPasskeyAuthenticator.Attestation
  ) async throws {
    let peer = try Peer()
    let device = try DevelopmentPasskeyAuthenticator(directory: nil, attestation: attestation)
    let options = try await peer.ask(["op": "register-options", "lib": library])
    let challenge = try #require(Base64URL.decode(options["challenge"] as? String ?? ""))
    let user = try #require(Base64URL.decode(options["user"] as? String ?? ""))
    let registration = try await device.register(
      PasskeyRegistrationRequest(
        relyingPartyID: "localhost", challenge: Data(challenge), userID: Data(user), userName: "ada@example.com",
        displayName: "Ada", requiresUserVerification: true))
    let registered = try await peer.ask(["op": "register-verify", "credential": Self.json(registration)])
    #expect(registered["ok"] as? Bool == true, "\(library): \(registered)")
    #expect(registered["credentialId"] as? String == Base64URL.encode(Array(registration.credentialID)))

    for expected in [1, 2] {
      let request = try await peer.ask(["op": "authenticate-options"])
      let assertion = try await device.authenticate(
        PasskeyAssertionRequest(
          relyingPartyID: "localhost",
          challenge: Data(try #require(Base64URL.decode(request["challenge"] as? String ?? ""))),
          requiresUserVerification: true))
      let verified = try await peer.ask(["op": "authenticate-verify", "credential": Self.json(assertion)])
      #expect(verified["ok"] as? Bool == true, "\(library): \(verified)")
      #expect(verified["signCount"] as? Int == expected)
    }
  }

  @Test func anIndependentRelyingPartyRefusesAnAssertionForAnotherChallenge() async throws {
    let peer = try Peer()
    let device = try DevelopmentPasskeyAuthenticator(directory: nil)
    let options = try await peer.ask(["op": "register-options", "lib": "py_webauthn"])
    let registration = try await device.register(
      PasskeyRegistrationRequest(
        relyingPartyID: "localhost", challenge: Data(Base64URL.decode(options["challenge"] as! String)!),
        userID: Data("u".utf8), userName: "ada@example.com", displayName: "Ada"))
    _ = try await peer.ask(["op": "register-verify", "credential": Self.json(registration)])
    _ = try await peer.ask(["op": "authenticate-options"])
    let stale = try await device.authenticate(
      PasskeyAssertionRequest(relyingPartyID: "localhost", challenge: Data([1])))
    let refused = try await peer.ask(["op": "authenticate-verify", "credential": Self.json(stale)])
    #expect(refused["ok"] as? Bool == false)
  }
}
