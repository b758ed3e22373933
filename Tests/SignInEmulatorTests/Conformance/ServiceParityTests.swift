import Foundation
import SignInEmbeddedTestSupport
import SignInWire
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// The service answers the same in process as over HTTP: for every endpoint it answers, one body
/// (the wire layer's sample, every field set) is handed to ``IdentityToolkitService`` by the
/// in-process transport and sent as `FirebaseBackend` sends it to the emulator, each in a new project of its own. Both
/// fail with the same status and message, or both succeed with replies of the same shape (the
/// same fields; identifiers and tokens are each project's own).
@Suite struct ServiceParityTests {
  static let endpoints = FirebaseAPI.all.filter { IdentityToolkitService.Registrations.firebase.answers($0) }
    .map(\.signature)

  @Test func onlyTheEmulatorsWebPagesAreLeftToHTTP() {
    let left = FirebaseAPI.all.filter { !IdentityToolkitService.Registrations.firebase.answers($0) }.map(\.signature)
    #expect(
      left.sorted()
        == [
          FirebaseAPI.emulatorAccountsPage.signature, FirebaseAPI.emulatorHandler.signature,
          FirebaseAPI.emulatorHandlerChoice.signature,
        ].sorted())
  }

  @Test(arguments: endpoints)
  func anEndpointAnswersTheSameInProcessAndOverHTTPParity(_ signature: String) async throws {
    let endpoint = try #require(FirebaseAPI.all.first { $0.signature == signature })
    try await (endpoint as! any ParityCheckable).checkParity()
  }
}

/// An endpoint whose two transports can be compared.
protocol ParityCheckable {
  func checkParity() async throws
}

/// A new project for one side of a comparison, with a signed-up user when `seeded`.
struct ParityProject {
  static let placeholders = ["project": "demo-project", "tenant": "t-1", "id": "oidc.sample"]
  let backend: EmbeddedBackend
  /// The values a seeded body carries, by field name.
  var fields: [String: String] = [:]

  init(seeded: Bool) async throws {
    backend = try EmbeddedTestBackend.backend()
    guard seeded else { return }
    let email = "ada@example.com"
    let password = "correct horse"
    let signedUp = try await backend.signUp(SignUpRequest(email: email, password: password))
    fields = [
      "idToken": signedUp.tokens.idToken, "refreshToken": signedUp.tokens.refreshToken,
      "localId": signedUp.localID, "email": email, "password": password,
    ]
  }

  /// `sample` with this project's values in the top-level fields that take them, and no
  /// tenant (the sample's names none that exists).
  func filling<Body: WireBody>(_ sample: Body) throws -> Body {
    guard !fields.isEmpty,
      var object = try JSONSerialization.jsonObject(with: try sample.encoded()) as? [String: Any]
    else { return sample }
    object["tenantId"] = nil
    for (name, value) in fields where object[name] != nil {
      object[name] = object[name] is [Any] ? [value] : value
    }
    return try JSONDecoder().decode(Body.self, from: try JSONSerialization.data(withJSONObject: object))
  }
}

/// One call's outcome, as either transport gives it: the status, and the failure's message or
/// the reply's fields.
struct CallOutcome: Equatable, CustomStringConvertible {
  var status: Int
  var failure: String?
  /// The reply's field paths (`users[].localId`); values differ between projects.
  var fields: Set<String> = []
  /// The text of a plain-text page.
  var text: String?

  var description: String {
    failure.map { "\(status) \($0)" } ?? "\(status) \(text ?? fields.sorted().joined(separator: ", "))"
  }

  static func fields(ofJSON data: Data) -> Set<String> {
    guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return [] }
    var found: Set<String> = []
    func walk(_ value: Any, _ prefix: String) {
      if let object = value as? [String: Any] {
        for (key, member) in object {
          found.insert(prefix + key)
          walk(member, prefix + key + ".")
        }
      } else if let array = value as? [Any] {
        for element in array { walk(element, String(prefix.dropLast()) + "[].") }
      }
    }
    walk(value, "")
    return found
  }
}

extension Endpoint: ParityCheckable {
  func checkParity() async throws {
    let sample = try WireSchema.probe(Body.self).sample
    for path in paths {
      // The sample as it is (mostly refused: its tokens are no one's), then with a signed-up
      // user's tokens, uid, email and password in the fields that take them.
      for seeded in [false, true] {
        let overHTTP = try await ParityProject(seeded: seeded)
        let inProcess = try await ParityProject(seeded: seeded)
        let http = try await sendOverHTTP(try overHTTP.filling(sample), on: path, to: overHTTP.backend)
        let direct = try await handInProcess(try inProcess.filling(sample), on: path, to: inProcess.backend)
        #expect(
          direct == http,
          "\(method.rawValue) \(path.template)\(seeded ? ", seeded" : ""): in process \(direct), over HTTP \(http)")
      }
    }
  }

  /// `body` sent as `FirebaseBackend` sends it to the emulator.
  func sendOverHTTP(_ body: Body, on path: EndpointPath, to backend: EmbeddedBackend) async throws -> CallOutcome {
    let transport = TableTransport(backend: backend)
    let client = try FirebaseBackend.emulator(projectID: "demo-project", transport: transport)
    var request = try client.request(self, body, placeholders: ParityProject.placeholders, on: path)
    if path.callers.needsAdministrator { request.headers.append(("Authorization", "Bearer owner")) }
    return try Self.outcome(of: try await transport.send(request))
  }

  /// `body` handed to the service by the in-process transport, as `FirebaseBackend` hands it.
  func handInProcess(_ body: Body, on path: EndpointPath, to backend: EmbeddedBackend) async throws -> CallOutcome {
    let transport = InProcessTransport(service: IdentityToolkitService(serving: backend))
    do {
      return try Self.outcome(
        of: try await transport.send(self, body, on: path, placeholders: ParityProject.placeholders))
    } catch let error as AuthError {
      let failure = try #require(error.firebaseFailure, "\(error)")
      return CallOutcome(status: failure.status, failure: failure.message)
    }
  }

  static func outcome(of response: HTTPResponse) throws -> CallOutcome {
    let type = response.headers["content-type"] ?? ""
    if type.hasPrefix("text/plain") {
      return CallOutcome(
        status: response.status,
        text: String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .newlines))
    }
    if response.status >= 400 {
      let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: response.body)
      return CallOutcome(status: response.status, failure: envelope.error?.message)
    }
    return CallOutcome(status: response.status, fields: CallOutcome.fields(ofJSON: response.body))
  }

  static func outcome(of reply: Reply) throws -> CallOutcome {
    if let page = reply as? EmulatorActionPage {
      return CallOutcome(status: page.status.map(Int.init) ?? 200, text: page.text ?? "")
    }
    return CallOutcome(status: 200, fields: CallOutcome.fields(ofJSON: try reply.encoded()))
  }
}
