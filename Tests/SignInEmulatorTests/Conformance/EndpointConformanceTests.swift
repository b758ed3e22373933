import Foundation
import SignInConcurrency
import SignInEmbeddedTestSupport
import SignInWire
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// Both ends of every endpoint of the one description, `FirebaseAPI.all`, checked against each
/// other: on each of the endpoint's paths, the request `FirebaseBackend` encodes (a sample body
/// with every field set) is matched by the emulator's route table to that endpoint and decodes
/// there into the same values, and the reply the emulator renders decodes on the client into the
/// same values. Every error code round-trips to the `AuthError` the client promises.
@Suite struct EndpointConformanceTests {
  /// Each endpoint, by its client path and method, for the test's arguments.
  static let endpoints = FirebaseAPI.all.map(\.signature)

  @Test func theRouteTableServesEveryEndpointOfTheListAndNothingElse() {
    let served = EmulatorRouteTable.firebase.served
    #expect(served.count == FirebaseAPI.all.count, "one handler per endpoint")
    #expect(served.sorted() == FirebaseAPI.all.map(\.signature).sorted())
  }

  @Test func noTwoEndpointsAnswerTheSamePathAndMethod() {
    var seen: [String: String] = [:]
    for endpoint in FirebaseAPI.all {
      for path in endpoint.paths {
        let key = "\(endpoint.method.rawValue) \(path.emulatorTemplate)"
        #expect(seen[key] == nil, "\(key) is both \(seen[key] ?? "") and \(endpoint.name)")
        seen[key] = endpoint.name
      }
    }
  }

  @Test(arguments: endpoints)
  func theClientsRequestAndTheServersReplyMeanTheSameOnBothEnds(_ signature: String) async throws {
    let endpoint = try #require(FirebaseAPI.all.first { $0.signature == signature })
    let checked = try await (endpoint as! any ConformanceCheckable).checkConformance()
    #expect(checked == endpoint.paths.count, "every path of \(signature) was checked")
  }

  @Test(arguments: FirebaseErrorCode.allCases)
  func everyErrorCodeReachesTheClientAsTheAuthErrorItPromises(_ code: FirebaseErrorCode) async throws {
    let failure = FirebaseFailure(code, code == .weakPassword ? nil : "a detail ((with a note))")
    var registrations = IdentityToolkitService.Registrations()
    registrations.add(FirebaseAPI.signInWithPassword) { _, _ in throw failure }
    let backend = try FirebaseBackend.emulator(
      projectID: "demo-project",
      transport: TableTransport(registrations, backend: try EmbeddedTestBackend.backend()))
    let error = await #expect(throws: AuthError.self) {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "a@example.com", password: "pw-123456"))
    }
    #expect(error?.code == FirebaseErrorCatalog.meaning(of: code).code)
    #expect(error?.serverMessage == failure.message)
    #expect(error?.firebaseFailure == failure)
    #expect(error?.message.contains(FirebaseErrorCatalog.meaning(of: code).message) == true)
  }

  @Test func aThrownAuthErrorIsRenderedWithTheFailureItCarries() async throws {
    var registrations = IdentityToolkitService.Registrations()
    registrations.add(FirebaseAPI.signInWithPassword) { _, _ in
      throw AuthError(firebase: .tooManyAttemptsTryLater, message: "Wait ten seconds.")
    }
    let transport = TableTransport(registrations, backend: try EmbeddedTestBackend.backend())
    let backend = try FirebaseBackend.emulator(projectID: "demo-project", transport: transport)
    let error = await #expect(throws: AuthError.self) {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "a@example.com", password: "pw-123456"))
    }
    #expect(error?.code == .tooManyRequests)
    #expect(error?.serverMessage == FirebaseErrorCode.tooManyAttemptsTryLater.rawValue)
  }
}

/// An endpoint whose two ends can be checked against each other.
protocol ConformanceCheckable {
  /// Checks each path; returns how many were checked.
  func checkConformance() async throws -> Int
}

extension Endpoint: ConformanceCheckable {
  func checkConformance() async throws -> Int {
    let body = try WireSchema.probe(Body.self).sample
    // A reply is sent without the fields that belong in a request's query (`updateMask`).
    let reply = try JSONDecoder().decode(Reply.self, from: try WireSchema.probe(Reply.self).sample.encoded())
    let received = Locked<[Body]>([])
    var registrations = IdentityToolkitService.Registrations()
    registrations.add(self) { got, _ in
      received.withLock { $0.append(got) }
      return reply
    }
    let transport = TableTransport(registrations, backend: try EmbeddedTestBackend.backend())
    let backend = try FirebaseBackend.emulator(projectID: "demo-project", transport: transport)
    var checked = 0
    for path in paths {
      var request = try backend.request(
        self, body, placeholders: ["tenant": "t-1", "id": "oidc.sample"], on: path)
      if path.callers.needsAdministrator {
        request.headers.append(("Authorization", "Bearer owner"))
      }
      if Reply.self == EmulatorActionPage.self {
        let response = try await transport.send(request)
        #expect(response.status == Int((reply as? EmulatorActionPage)?.status ?? 200), "\(path.template)")
        #expect(String(decoding: response.body, as: UTF8.self).contains((reply as? EmulatorActionPage)?.text ?? "?"))
      } else if let page = reply as? EmulatorWebPage {
        // A page for a browser: its redirect, as a browser reads it.
        let response = try await transport.send(request)
        #expect(response.status == 303, "\(path.template)")
        let location = response.headers.first { $0.key.lowercased() == "location" }?.value
        #expect(location == page.location, "\(path.template)")
      } else {
        let decoded: Reply = try await backend.exchange(request, call: name)
        #expect(decoded == reply, "the reply of \(method.rawValue) \(path.template) reads back on the client")
      }
      let got = received.withLock { $0.popLast() }
      #expect(got == body, "the body of \(method.rawValue) \(path.template) reads on the server as sent")
      checked += 1
    }
    return checked
  }
}
