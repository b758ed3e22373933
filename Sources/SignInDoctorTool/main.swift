// `signin-doctor`: the tool behind `swift package signin-doctor`. Prints a ✓/✗ checklist of the
// package's sign-in configuration with the fix for each ✗, and exits 1 when there is one. The
// checks are `DoctorChecklist` (ServiceInfo, tested there); this file reads the files and the
// environment and supplies SignInKit's two checks.
//
//   signin-doctor [--online] [--target NAME PLIST]...
import Foundation
import ServiceInfo
import SignInKit

let arguments: DoctorArguments
do {
  arguments = try DoctorArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(2)
}
let plists = arguments.plists.map {
  DoctorChecklist.Plist(
    target: $0.name, path: $0.path, contents: FileManager.default.contents(atPath: $0.path) ?? Data())
}
let checklist = await DoctorChecklist.make(
  plists: plists, emulatorHost: ProcessInfo.processInfo.environment["FIREBASE_AUTH_EMULATOR_HOST"],
  checkEmulatorHost: { value -> Result<String, DoctorChecklist.EmulatorHostProblem> in
    do {
      return .success("\(try FirebaseEmulatorHost(value))")
    } catch {
      return .failure(DoctorChecklist.EmulatorHostProblem(fix: AuthError.wrapping(error).message))
    }
  },
  probe: arguments.online ? probeBackend : nil)
print(checklist.text, terminator: "")
exit(checklist.hasFailures ? 1 : 0)

/// Asks the project's backend to look up a made-up token: refusing it as a token proves the key
/// and the project are accepted.
@Sendable func probeBackend(_ info: ServiceInfo) async -> DoctorChecklist.ProbeOutcome {
  do {
    let backend = try FirebaseBackend(
      configuration: FirebaseConfiguration(
        apiKey: info.apiKey, projectID: info.projectID, appID: info.googleAppID, bundleID: info.bundleID))
    _ = try await backend.lookup(LookupRequest(idToken: "signin-doctor-probe"))
    return .accepted
  } catch let error as AuthError where [.sessionExpired, .invalidCredential, .userNotFound].contains(error.code) {
    return .accepted
  } catch {
    let error = AuthError.wrapping(error)
    return .refused(code: "\(error.code)", fix: error.message)
  }
}
