import Foundation
import SignInKit
import Testing

/// Review N1: descriptors. A tenant's accounts live in the project's database file, so a server
/// with a data folder holds the same descriptors with a hundred tenants as with none; before, each
/// tenant opened a database of its own (three descriptors), and the server ran out and crashed.
/// Projects still have a file each: when the descriptor limit runs out, a new one is refused with
/// a 503 and the server goes on.
extension SigninServeTests {
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
  func aHundredTenantsOpenNoDescriptorsOfTheirOwn() async throws {
    let data = SigninProcessTests.Scratch()
    let server = try await Server(["--data-dir", data.url.path, "--hash-cost", "test"])
    let descriptors = "/proc/\(server.process.processIdentifier)/fd"
    func signUp(_ tenant: String?) async throws {
      let tenantField = tenant.map { #","tenantId":"\#($0)""# } ?? ""
      let reply = try await Self.client(
        server.host, "accounts:signUp", #"{"email":"ada@example.com","password":"hunter2-pass"\#(tenantField)}"#)
      #expect(reply.status == 200, "\(tenant ?? "project"): \(reply.body)")
    }
    try await signUp(nil)
    let before = try FileManager.default.contentsOfDirectory(atPath: descriptors).count
    for number in 0..<100 { try await signUp("tenant-\(number)") }
    let after = try FileManager.default.contentsOfDirectory(atPath: descriptors).count
    // A few connections may come and go; a descriptor per tenant would be a hundred or more.
    #expect(after - before < 20, "descriptors went from \(before) to \(after)")
    let files = FileManager.default.subpaths(atPath: data.url.path) ?? []
    #expect(!files.contains { $0.split(separator: "/").contains("tenants") }, "\(files)")
    #expect(try await server.stop().0 == 0)
  }

  @Test func projectsPastTheDescriptorLimitAreRefusedWith503AndTheServerGoesOn() async throws {
    let data = SigninProcessTests.Scratch()
    let server = try await Server(["--data-dir", data.url.path, "--hash-cost", "test"], descriptorLimit: 96)
    var statuses: [Int: Int] = [:]
    for number in 0..<60 {
      let reply = try await Self.adminCall(
        "POST", server.host, "/identitytoolkit.googleapis.com/v1/projects/project-\(number)/accounts",
        #"{"email":"ada@example.com","password":"hunter2-pass"}"#)
      statuses[reply.status, default: 0] += 1
      if reply.status == 503 {
        #expect(reply.body.contains("ulimit -n"), "\(reply.body)")
      }
    }
    #expect(Set(statuses.keys).isSubset(of: [200, 503]), "\(statuses)")
    #expect(statuses[503, default: 0] > 0, "the limit never ran out: \(statuses)")
    #expect(statuses[200, default: 0] > 0, "\(statuses)")
    // The served project, and the projects made before the limit ran out, still answer.
    let served = try await Self.client(
      server.host, "accounts:signUp", #"{"email":"grace@example.com","password":"hunter2-pass"}"#)
    #expect(served.status == 200, "\(served.body)")
    let earlier = try await Self.adminCall(
      "POST", server.host, "/identitytoolkit.googleapis.com/v1/projects/project-0/accounts:lookup",
      #"{"email":["ada@example.com"]}"#)
    #expect(earlier.status == 200, "\(earlier.body)")
    #expect(try await server.stop().0 == 0)
  }

  /// An administrator's call with its status and body.
  static func adminCall(_ method: String, _ host: String, _ path: String, _ body: String) async throws -> (
    status: Int, body: String
  ) {
    var request = HTTPRequest(
      method: method, url: URL(string: "http://\(host)\(path)")!,
      headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")])
    request.body = Data(body.utf8)
    let reply = try await URLSessionTransport().send(request)
    return (reply.status, String(decoding: reply.body, as: UTF8.self))
  }
}
