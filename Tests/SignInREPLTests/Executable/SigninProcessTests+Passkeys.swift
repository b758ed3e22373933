import Foundation
import Testing

/// `passkey` in the `signin` binary: the development authenticator keeps its keys in the data
/// folder, so a passkey enrolled in one process signs in from the next, until it is removed.
extension SigninProcessTests {
  /// The credential id of the passkey `name` in `output`'s enrolment line.
  static func credentialID(of name: String, in output: String) -> String? {
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("passkey enrolled") }),
      let range = line.range(of: "\"\(name)\" (")
    else { return nil }
    return String(line[range.upperBound...].prefix { $0 != ")" })
  }

  @Test func aPasskeyEnrolledInOneProcessSignsInFromTheNextUntilRemoved() async throws {
    let scratch = Scratch()
    let folder = ["--data-dir", scratch.url.path]
    let enrolled = try await Self.signin(
      folder + ["-c", "signup ada@example.com; passkey enrol 'Work laptop'; passkey list; signout"],
      stdin: "hunter2-pass\n")
    #expect(enrolled.status == 0, "\(enrolled.output)")
    #expect(enrolled.output.contains(#"passkey enrolled (development authenticator): "Work laptop""#))
    #expect(enrolled.output.contains("on this authenticator"))
    let id = try #require(Self.credentialID(of: "Work laptop", in: enrolled.output))
    let keys = scratch.url.appendingPathComponent("development-authenticator/passkeys.json")
    let mode = try FileManager.default.attributesOfItem(atPath: keys.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)

    let signedIn = try await Self.signin(folder + ["-c", "passkey signin; whoami"])
    #expect(signedIn.status == 0, "\(signedIn.output)")
    #expect(signedIn.output.contains("signed in with a passkey as ada@example.com"))
    #expect(signedIn.output.contains(#"passkeys: "Work laptop""#))

    let removed = try await Self.signin(folder + ["-c", "passkey remove \(id); signout; passkey signin"])
    #expect(removed.status == 1)
    #expect(removed.output.contains("passkey removed; 0 left"))
    #expect(removed.output.contains("error (no-passkey)"))
    #expect(!removed.output.contains("hunter2-pass"))
  }
}
