import Foundation

/// The values of a Firebase `GoogleService-Info.plist` that sign-in needs, and the checks that
/// turn the usual configuration mistakes into build errors: a file downloaded twice
/// (`GoogleService-Info-2.plist`, `GoogleService-Info (1).plist`) that Firebase ignores, missing
/// keys, a malformed file, a `REVERSED_CLIENT_ID` that is not `CLIENT_ID` reversed, two plists
/// in one target. Suspicious values are warnings.
///
/// - Concurrency: `Sendable` value; the checks are pure functions of the files' contents.
public struct ServiceInfo: Sendable, Equatable {
  public static let fileName = "GoogleService-Info.plist"
  public static let requiredKeys = ["API_KEY", "PROJECT_ID", "GOOGLE_APP_ID"]

  public var apiKey: String
  public var projectID: String
  public var googleAppID: String
  public var clientID: String?
  public var reversedClientID: String?
  public var bundleID: String?

  /// What checking some files found: the values (when there were no errors) and every finding.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Report: Sendable, Equatable {
    public var info: ServiceInfo?
    public var diagnostics: [ServiceInfoDiagnostic]
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
  }

  /// Whether `name` looks like a service plist, the right name or a duplicate download's.
  public static func isCandidate(_ name: String) -> Bool {
    name.hasPrefix("GoogleService-Info") && name.hasSuffix(".plist")
  }

  /// Checks the service plists of one target. `files` are paths and contents.
  public static func check(_ files: [(path: String, contents: Data)]) -> Report {
    var diagnostics: [ServiceInfoDiagnostic] = []
    let candidates = files.filter { isCandidate(URL(fileURLWithPath: $0.path).lastPathComponent) }
    for file in candidates where URL(fileURLWithPath: file.path).lastPathComponent != fileName {
      let name = URL(fileURLWithPath: file.path).lastPathComponent
      diagnostics.append(
        ServiceInfoDiagnostic(
          .error, path: file.path,
          "'\(name)' is not read by Firebase: a second download got a new name. Rename it to \(fileName) (and delete any older copy)."
        ))
    }
    let proper = candidates.filter { URL(fileURLWithPath: $0.path).lastPathComponent == fileName }
    if proper.count > 1 {
      for file in proper.dropFirst() {
        diagnostics.append(
          ServiceInfoDiagnostic(
            .error, path: file.path,
            "A second \(fileName) in this target (first: \(proper[0].path)). Keep one per target."))
      }
    }
    guard diagnostics.isEmpty, let file = proper.first ?? candidates.first else {
      if candidates.isEmpty {
        return Report(info: nil, diagnostics: [])
      }
      return Report(info: nil, diagnostics: diagnostics)
    }
    return parse(path: file.path, contents: file.contents)
  }

  /// Parses and checks one well-named plist.
  public static func parse(path: String, contents: Data) -> Report {
    let text = String(decoding: contents, as: UTF8.self)
    func line(of key: String) -> Int {
      guard let range = text.range(of: "<key>\(key)</key>") else { return 1 }
      return text[..<range.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }
    let plist: [String: Any]
    do {
      guard let dictionary = try PropertyListSerialization.propertyList(from: contents, format: nil) as? [String: Any]
      else {
        return Report(
          info: nil,
          diagnostics: [
            ServiceInfoDiagnostic(
              .error, path: path, "\(fileName) must be a dictionary. Download it again from the Firebase console.")
          ])
      }
      plist = dictionary
    } catch {
      return Report(
        info: nil,
        diagnostics: [
          ServiceInfoDiagnostic(
            .error, path: path,
            "\(fileName) is not a valid property list (\(error.localizedDescription)). Download it again from the Firebase console."
          )
        ])
    }
    var diagnostics: [ServiceInfoDiagnostic] = []
    func value(_ key: String) -> String? {
      guard let value = plist[key] as? String, !value.isEmpty else { return nil }
      return value
    }
    for key in requiredKeys where value(key) == nil {
      diagnostics.append(
        ServiceInfoDiagnostic(
          .error, path: path, line: plist[key] == nil ? 1 : line(of: key),
          "\(fileName) has no \(key). Download it again from Project settings → Your apps in the Firebase console."))
    }
    let clientID = value("CLIENT_ID")
    let reversed = value("REVERSED_CLIENT_ID")
    if let clientID {
      let expected = reversedClientID(of: clientID)
      if let reversed, reversed != expected {
        diagnostics.append(
          ServiceInfoDiagnostic(
            .error, path: path, line: line(of: "REVERSED_CLIENT_ID"),
            "REVERSED_CLIENT_ID is '\(reversed)' but CLIENT_ID reversed is '\(expected)'. Use '\(expected)', in the plist and in the app's URL scheme."
          ))
      }
    }
    if let apiKey = value("API_KEY"), !(apiKey.hasPrefix("AIza") && apiKey.count == 39) {
      diagnostics.append(
        ServiceInfoDiagnostic(
          .warning, path: path, line: line(of: "API_KEY"),
          "API_KEY does not look like a Firebase Web API key (39 characters starting with AIza). Check it was copied whole."
        ))
    }
    guard let apiKey = value("API_KEY"), let projectID = value("PROJECT_ID"), let appID = value("GOOGLE_APP_ID"),
      !diagnostics.contains(where: { $0.severity == .error })
    else { return Report(info: nil, diagnostics: diagnostics) }
    let info = ServiceInfo(
      apiKey: apiKey, projectID: projectID, googleAppID: appID, clientID: clientID,
      reversedClientID: reversed ?? clientID.map(reversedClientID(of:)), bundleID: value("BUNDLE_ID"))
    return Report(info: info, diagnostics: diagnostics)
  }

  /// `1234-abc.apps.googleusercontent.com` → `com.googleusercontent.apps.1234-abc`.
  public static func reversedClientID(of clientID: String) -> String {
    clientID.split(separator: ".").reversed().joined(separator: ".")
  }

  /// Whether the project id is one only the emulator accepts (`demo-…`).
  public var isEmulatorOnlyProject: Bool { projectID.hasPrefix("demo-") }

  /// The Swift source the build-tool plugin adds to the target: a `SignInConfiguration` with
  /// every value, and, where SignInKit is imported, `FirebaseConfiguration.serviceInfo`.
  public func swiftSource(from path: String) -> String {
    func literal(_ value: String?) -> String {
      guard let value else { return "nil" }
      let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      return "\"\(escaped)\""
    }
    var source = """
      // Generated by ServiceInfoPlugin from \(URL(fileURLWithPath: path).lastPathComponent). Do not edit.

      /// The values of this target's GoogleService-Info.plist, checked at build time.
      enum SignInConfiguration {
        static let apiKey = \(literal(apiKey))
        static let projectID = \(literal(projectID))
        static let googleAppID = \(literal(googleAppID))
        static let clientID: String? = \(literal(clientID))
        static let reversedClientID: String? = \(literal(reversedClientID))
        static let bundleID: String? = \(literal(bundleID))
      }

      #if canImport(SignInKit)
        import SignInKit

        extension FirebaseConfiguration {
          /// This target's GoogleService-Info.plist, read at build time.
          static let serviceInfo = FirebaseConfiguration(
            apiKey: SignInConfiguration.apiKey, projectID: SignInConfiguration.projectID,
            appID: SignInConfiguration.googleAppID, bundleID: SignInConfiguration.bundleID,
            clientID: SignInConfiguration.clientID)
        }
      #endif

      """
    if isEmulatorOnlyProject {
      source += """

        #if !DEBUG
          #warning("GoogleService-Info.plist names the emulator-only project '\(projectID)'; release builds need a real project.")
        #endif

        """
    }
    return source
  }
}
