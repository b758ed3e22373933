import Foundation
import SignInKit
import Testing

/// Review N1: a tenant's accounts live in the project's database file, so a server with a data
/// folder holds the same descriptors with a hundred tenants as with none; before, each tenant
/// opened a database of its own (three descriptors), and the server ran out.
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
}
