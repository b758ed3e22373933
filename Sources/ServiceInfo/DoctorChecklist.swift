import Foundation

/// The checklist `swift package signin-doctor` prints: each target's `GoogleService-Info.plist`,
/// the sign-in methods it enables, where `FIREBASE_AUTH_EMULATOR_HOST` sends requests, and, when
/// asked, whether the backend accepts the project's key. A pure function of what it is given:
/// the plists' contents, the environment's value, and two checks the caller supplies (the
/// `signin-doctor` tool passes SignInKit's).
///
/// ```swift
/// let checklist = await DoctorChecklist.make(
///   plists: [.init(target: "App", path: path, contents: data)], emulatorHost: nil,
///   checkEmulatorHost: { _ in nil }, probe: nil)
/// print(checklist.text)
/// ```
///
/// - Concurrency: `Sendable` value.
package struct DoctorChecklist: Sendable, Equatable {
  /// One line of the checklist.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Check: Sendable, Equatable {
    /// ✓, ✗, – (a note: nothing is wrong, but something is not set up) or ! (a warning).
    package enum Outcome: String, Sendable, Equatable {
      case passed = "✓"
      case failed = "✗"
      case note = "–"
      case warning = "!"
    }

    package var outcome: Outcome
    package var line: String
    /// What to do, for a failed check.
    package var fix: String?

    package init(_ outcome: Outcome, _ line: String, fix: String? = nil) {
      self.outcome = outcome
      self.line = line
      self.fix = fix
    }
  }

  /// A plist of a target, as read from disk.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Plist: Sendable, Equatable {
    package var target: String
    package var path: String
    package var contents: Data

    package init(target: String, path: String, contents: Data) {
      self.target = target
      self.path = path
      self.contents = contents
    }
  }

  /// What asking the backend came to, for one target.
  ///
  /// - Concurrency: `Sendable` value.
  package enum ProbeOutcome: Sendable, Equatable {
    /// The backend answered (refusing the made-up token proves the key and project work).
    case accepted
    /// The backend refused the request itself: its error code and what to do.
    case refused(code: String, fix: String)
  }

  package var checks: [Check]

  /// Whether any check failed: the tool then exits 1.
  package var hasFailures: Bool { checks.contains { $0.outcome == .failed } }

  /// The checklist as the tool prints it: a title, one line per check, and the fix under each
  /// failed one.
  package var text: String {
    var lines = ["SignInKit doctor"]
    for check in checks {
      lines.append("\(check.outcome.rawValue) \(check.line)")
      if check.outcome == .failed, let fix = check.fix { lines.append("    fix: \(fix)") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Runs every check.
  ///
  /// - Parameters:
  ///   - plists: the plists of each target (`--target NAME PLIST`).
  ///   - emulatorHost: `FIREBASE_AUTH_EMULATOR_HOST`, `nil` or empty when unset.
  ///   - checkEmulatorHost: the reason a value is not a usable host, or `nil` when it is; with the
  ///     host it names, as it will be used.
  ///   - probe: asks the backend about a target's project (`--online`); `nil` skips it.
  /// - Concurrency: the probes run one after another, on the caller's task.
  package static func make(
    plists: [Plist], emulatorHost: String?,
    checkEmulatorHost: @Sendable (String) -> Result<String, EmulatorHostProblem>,
    probe: (@Sendable (ServiceInfo) async -> ProbeOutcome)?
  ) async -> DoctorChecklist {
    var checks: [Check] = []
    var configurations: [(target: String, info: ServiceInfo)] = []
    if plists.isEmpty {
      checks.append(
        Check(
          .failed, "No GoogleService-Info.plist in any target",
          fix: "Download it from Project settings → Your apps in the Firebase console into the app target's folder "
            + "(the embedded backend needs none)."))
    }
    for target in Set(plists.map(\.target)).sorted() {
      let report = ServiceInfo.check(
        plists.filter { $0.target == target }.map { (path: $0.path, contents: $0.contents) })
      for diagnostic in report.diagnostics where diagnostic.severity == .warning {
        checks.append(Check(.warning, "\(target): \(diagnostic.message)"))
      }
      if let info = report.info {
        checks.append(Check(.passed, "\(target): GoogleService-Info.plist is valid (project \(info.projectID))"))
        configurations.append((target, info))
      } else {
        for diagnostic in report.diagnostics where diagnostic.severity == .error {
          let name = URL(fileURLWithPath: diagnostic.path).lastPathComponent
          checks.append(Check(.failed, "\(target): \(name): \(diagnostic.message)"))
        }
      }
    }
    for (target, info) in configurations {
      checks += methods(of: info, in: target)
    }
    checks.append(emulator(emulatorHost, checkEmulatorHost))
    if let probe {
      for (target, info) in configurations {
        switch await probe(info) {
        case .accepted: checks.append(Check(.passed, "\(target): the backend answered and accepts the API key"))
        case .refused(let code, let fix):
          checks.append(Check(.failed, "\(target): the backend did not accept the request (\(code))", fix: fix))
        }
      }
    }
    return DoctorChecklist(checks: checks)
  }

  /// Why `FIREBASE_AUTH_EMULATOR_HOST` cannot be used, and what to set instead.
  ///
  /// - Concurrency: `Sendable` value.
  package struct EmulatorHostProblem: Error, Sendable, Equatable {
    package var fix: String
    package init(fix: String) { self.fix = fix }
  }

  private static func methods(of info: ServiceInfo, in target: String) -> [Check] {
    var checks = [
      Check(
        .passed, "\(target): email/password and anonymous sign-in (enable them in the console's Sign-in method tab)")
    ]
    if let clientID = info.clientID {
      checks.append(
        Check(.passed, "\(target): Google sign-in (client \(clientID); URL scheme \(info.reversedClientID ?? ""))"))
    } else {
      checks.append(
        Check(
          .note,
          "\(target): Google sign-in is not configured (no CLIENT_ID; enable Google in the console, then download the plist again)"
        ))
    }
    if let bundleID = info.bundleID {
      checks.append(Check(.passed, "\(target): Sign in with Apple for bundle \(bundleID)"))
    } else {
      checks.append(Check(.note, "\(target): no BUNDLE_ID, so Sign in with Apple has no app to sign in"))
    }
    return checks
  }

  private static func emulator(
    _ value: String?, _ check: (String) -> Result<String, EmulatorHostProblem>
  ) -> Check {
    guard let value, !value.isEmpty else {
      return Check(.note, "FIREBASE_AUTH_EMULATOR_HOST is not set: requests go to production Firebase")
    }
    switch check(value) {
    case .success(let host):
      return Check(.passed, "FIREBASE_AUTH_EMULATOR_HOST=\(value): requests go to the emulator at \(host)")
    case .failure(let problem):
      return Check(.failed, "FIREBASE_AUTH_EMULATOR_HOST=\(value) is not host:port", fix: problem.fix)
    }
  }
}
