// `signin-doctor`: the tool behind `swift package signin-doctor`. Prints a ✓/✗ checklist of the
// package's sign-in configuration with the fix for each ✗, and exits 1 when there is one.
//
//   signin-doctor [--online] [--target NAME PLIST]...
import Foundation
import ServiceInfo
import SignInKit

var online = false
var plists: [(target: String, path: String)] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--online": online = true
  case "--target":
    guard let target = arguments.popFirst(), let path = arguments.popFirst() else {
      FileHandle.standardError.write(Data("usage: signin-doctor [--online] [--target NAME PLIST]...\n".utf8))
      exit(2)
    }
    plists.append((target, path))
  default:
    FileHandle.standardError.write(
      Data("unknown option \(argument)\nusage: signin-doctor [--online] [--target NAME PLIST]...\n".utf8))
    exit(2)
  }
}

var failed = false
@MainActor func check(_ ok: Bool?, _ line: String, fix: String? = nil) {
  let mark = ok.map { $0 ? "✓" : "✗" } ?? "–"
  print("\(mark) \(line)")
  if ok == false {
    failed = true
    if let fix { print("    fix: \(fix)") }
  }
}

print("SignInKit doctor")
var configurations: [(target: String, info: ServiceInfo)] = []
if plists.isEmpty {
  check(
    false, "No GoogleService-Info.plist in any target",
    fix: "Download it from Project settings → Your apps in the Firebase console into the app target's folder "
      + "(the embedded backend needs none).")
}
for target in Set(plists.map(\.target)).sorted() {
  let files = plists.filter { $0.target == target }.map {
    (path: $0.path, contents: FileManager.default.contents(atPath: $0.path) ?? Data())
  }
  let report = ServiceInfo.check(files)
  for diagnostic in report.diagnostics where diagnostic.severity == .warning {
    print("! \(target): \(diagnostic.message)")
  }
  if let info = report.info {
    check(true, "\(target): GoogleService-Info.plist is valid (project \(info.projectID))")
    configurations.append((target, info))
  } else {
    for diagnostic in report.diagnostics where diagnostic.severity == .error {
      check(false, "\(target): \(URL(fileURLWithPath: diagnostic.path).lastPathComponent): \(diagnostic.message)")
    }
  }
}

for (target, info) in configurations {
  check(true, "\(target): email/password and anonymous sign-in (enable them in the console's Sign-in method tab)")
  if let clientID = info.clientID {
    check(true, "\(target): Google sign-in (client \(clientID); URL scheme \(info.reversedClientID ?? ""))")
  } else {
    check(
      nil,
      "\(target): Google sign-in is not configured (no CLIENT_ID; enable Google in the console, then download the plist again)"
    )
  }
  if let bundleID = info.bundleID {
    check(true, "\(target): Sign in with Apple for bundle \(bundleID)")
  } else {
    check(nil, "\(target): no BUNDLE_ID, so Sign in with Apple has no app to sign in")
  }
}

let emulatorHost = ProcessInfo.processInfo.environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 }
if let emulatorHost {
  do {
    let host = try FirebaseEmulatorHost(emulatorHost)
    check(true, "FIREBASE_AUTH_EMULATOR_HOST=\(emulatorHost): requests go to the emulator at \(host)")
  } catch let error as AuthError {
    check(false, "FIREBASE_AUTH_EMULATOR_HOST=\(emulatorHost) is not host:port", fix: error.message)
  }
} else {
  check(nil, "FIREBASE_AUTH_EMULATOR_HOST is not set: requests go to production Firebase")
}

if online {
  for (target, info) in configurations {
    do {
      let backend = try FirebaseBackend(
        configuration: FirebaseConfiguration(
          apiKey: info.apiKey, projectID: info.projectID, appID: info.googleAppID, bundleID: info.bundleID))
      _ = try await backend.lookup(LookupRequest(idToken: "signin-doctor-probe"))
      check(true, "\(target): the backend answered")
    } catch let error as AuthError where [.sessionExpired, .invalidCredential, .userNotFound].contains(error.code) {
      // Refusing a made-up token proves the key and the project are accepted.
      check(true, "\(target): the backend answered and accepts the API key")
    } catch let error as AuthError {
      check(false, "\(target): the backend did not accept the request (\(error.code))", fix: error.message)
    }
  }
}

exit(failed ? 1 : 0)
