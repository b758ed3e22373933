import Foundation
import SignInKit
import Testing

/// Review N1: descriptors. A tenant's accounts live in the project's database file, so a server
/// with a data folder holds the same descriptors with a hundred tenants as with none; before, each
/// tenant opened a database of its own (three descriptors), and the server ran out and crashed.
/// Other projects' rows live there too (review V).
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

  /// Review V: projects had a database each (three descriptors); past the 79th under a limit of
  /// 256 the server answered 503 and then died with SIGILL under load. Projects' rows now live in
  /// the served project's database, as tenants' do: a hundred projects and a hundred tenants,
  /// made by clients at once under `ulimit -n 256`, are all answered and the server lives on.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
  func aHundredProjectsAndAHundredTenantsAtOnceUnderADescriptorLimitOf256() async throws {
    let data = SigninProcessTests.Scratch()
    let server = try await Server(["--data-dir", data.url.path, "--hash-cost", "test"], descriptorLimit: 256)
    let host = server.host
    let body = #"{"email":"ada@example.com","password":"hunter2-pass"}"#
    // Sixteen clients at a time, each making a project and a tenant and using both.
    let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
      var statuses: [Int] = []
      for number in 0..<100 {
        if number >= 16, let done = try await group.next() { statuses += done }
        group.addTask {
          let project = try await Self.adminCall(
            "POST", host, "/identitytoolkit.googleapis.com/v1/projects/project-\(number)/accounts", body)
          let tenant = try await Self.client(
            host, "accounts:signUp",
            #"{"email":"ada@example.com","password":"hunter2-pass","tenantId":"tenant-\#(number)"}"#)
          let lookup = try await Self.adminCall(
            "POST", host, "/identitytoolkit.googleapis.com/v1/projects/project-\(number)/accounts:lookup",
            #"{"email":["ada@example.com"]}"#)
          for reply in [project, tenant, lookup] where reply.status != 200 {
            Issue.record("project-\(number): \(reply.status) \(reply.body)")
          }
          return [project.status, tenant.status, lookup.status]
        }
      }
      for try await done in group { statuses += done }
      return statuses
    }
    #expect(statuses.count == 300)
    #expect(statuses.allSatisfy { $0 == 200 })
    #expect(server.process.isRunning)
    let descriptors = try FileManager.default.contentsOfDirectory(
      atPath: "/proc/\(server.process.processIdentifier)/fd")
    #expect(descriptors.count < 128, "the server holds \(descriptors.count) descriptors")
    let served = try await Self.client(
      server.host, "accounts:signUp", #"{"email":"grace@example.com","password":"hunter2-pass"}"#)
    #expect(served.status == 200, "\(served.body)")
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
