import Foundation

/// The project settings a ``FirebaseBackend`` needs, read from the `GoogleService-Info.plist`
/// Firebase gives an Apple app, or from a small JSON file:
///
/// ```json
/// {"apiKey": "AIza…", "projectId": "my-project", "appId": "1:123:ios:abc", "bundleId": "com.example.app"}
/// ```
///
/// - Concurrency: `Sendable` value.
public struct FirebaseConfiguration: Sendable, Equatable {
  /// `API_KEY` / `apiKey`.
  public var apiKey: String
  /// `PROJECT_ID` / `projectId`.
  public var projectID: String
  /// `GOOGLE_APP_ID` / `appId`.
  public var appID: String?
  /// `BUNDLE_ID` / `bundleId`.
  public var bundleID: String?
  /// `CLIENT_ID` / `clientId`: the app's OAuth client id at Google, for Google sign-in.
  public var clientID: String?

  public init(
    apiKey: String, projectID: String, appID: String? = nil, bundleID: String? = nil, clientID: String? = nil
  ) {
    self.apiKey = apiKey
    self.projectID = projectID
    self.appID = appID
    self.bundleID = bundleID
    self.clientID = clientID
  }

  /// Reads `file`: a property list (`GoogleService-Info.plist`) or a JSON object, whichever it
  /// holds.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` when the file cannot be read, is neither format,
  ///   or lacks the API key or project id; the message names the file and the missing key.
  public init(contentsOf file: URL) throws {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw AuthError(.misconfigured, "Cannot read \(file.path): \(error.localizedDescription). Check the path.")
    }
    try self.init(data: data, source: file.lastPathComponent)
  }

  /// Parses a property list or JSON object; `source` names it in errors.
  public init(data: Data, source: String = "the configuration") throws {
    let fields: [String: Any]
    if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
      fields = object
    } else if let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] {
      fields = plist
    } else {
      throw AuthError(
        .misconfigured,
        "\(source) is neither a property list nor a JSON object. Download GoogleService-Info.plist again from the Firebase console."
      )
    }
    func value(_ keys: String...) -> String? {
      for key in keys {
        if let value = fields[key] as? String, !value.isEmpty { return value }
      }
      return nil
    }
    guard let apiKey = value("API_KEY", "apiKey") else {
      throw AuthError(.misconfigured, "\(source) has no API_KEY (apiKey). Download it again from the Firebase console.")
    }
    guard let projectID = value("PROJECT_ID", "projectId", "projectID") else {
      throw AuthError(
        .misconfigured, "\(source) has no PROJECT_ID (projectId). Download it again from the Firebase console.")
    }
    self.init(
      apiKey: apiKey, projectID: projectID, appID: value("GOOGLE_APP_ID", "appId", "appID"),
      bundleID: value("BUNDLE_ID", "bundleId", "bundleID"), clientID: value("CLIENT_ID", "clientId", "clientID"))
  }
}
