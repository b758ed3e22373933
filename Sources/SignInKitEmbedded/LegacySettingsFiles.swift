import Foundation
import SignInFoundation
import SignInKit

/// The JSON files `signin serve` kept tenants (`tenants.json`) and OIDC and SAML provider
/// configurations (`provider-configs.json`) in before they moved into the database, and their
/// one-time import into its settings (kinds ``tenantKind``, ``oidcKind``, ``samlKind``).
///
/// Each file is read, its entries stored where the key is not taken, and the file renamed aside
/// (`.imported`), in one transaction: a failure leaves the file where it was, and two processes
/// opening the folder at once import it once.
///
/// - Concurrency: `Sendable` value.
struct LegacySettingsFiles: Sendable {
  let directory: URL

  package static let tenantKind = "tenant"
  package static let oidcKind = "oidc"
  package static let samlKind = "saml"

  /// Imports whichever of the files are there.
  ///
  /// - Throws: `AuthError/Code/storage` when a file cannot be read or is not the JSON it should
  ///   be; nothing of that file is imported and it is left as it is.
  func importOnce(into store: EmbeddedStore) throws -> [String] {
    var told: [String] = []
    let tenants = directory.appendingPathComponent("tenants.json")
    if let entries = try read(tenants, what: "The tenants file", as: [JSONValue].self) {
      let keyed = entries.compactMap { entry in entry.object?["tenantId"]?.string.map { ($0, entry) } }
      if try importing(keyed.map { (Self.tenantKind, $0.0, $0.1) }, from: tenants, into: store) {
        told.append(
          "Moved \(keyed.count) tenants from tenants.json into the database; the file is now tenants.json.imported.")
      }
    }
    let configs = directory.appendingPathComponent("provider-configs.json")
    if let table = try read(configs, what: "The provider configurations file", as: [String: [String: JSONValue]].self) {
      let entries =
        (table["oauthIdpConfigs"] ?? [:]).map { (Self.oidcKind, $0.key, $0.value) }
        + (table["inboundSamlConfigs"] ?? [:]).map { (Self.samlKind, $0.key, $0.value) }
      if try importing(entries, from: configs, into: store) {
        told.append(
          "Moved \(entries.count) provider configurations from provider-configs.json into the database; the file is "
            + "now provider-configs.json.imported.")
      }
    }
    return told
  }

  private func read<Value: Decodable>(_ file: URL, what: String, as type: Value.Type) throws -> Value? {
    guard let data = try AuthError.storage({ () throws(FileError) in try FileContents.read(file, what: what) }) else {
      return nil
    }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      throw AuthError(
        .storage,
        "\(file.path) is not the JSON signin serve wrote, so it was not moved into the database. Fix or remove it, "
          + "then start again.")
    }
  }

  /// Stores `entries` whose keys are free and renames `file` aside, in one transaction.
  private func importing(_ entries: [(String, String, JSONValue)], from file: URL, into store: EmbeddedStore) throws
    -> Bool
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var movedTo: URL?
    return try store.transaction { () throws -> Bool in
      guard FileManager.default.fileExists(atPath: file.path) else { return false }
      for (kind, key, value) in entries {
        _ = try store.settings.add(kind, key: key, value: try encoder.encode(value), limit: .max)
      }
      let aside = URL(fileURLWithPath: file.path + ".imported")
      try? FileManager.default.removeItem(at: aside)
      do {
        try FileManager.default.moveItem(at: file, to: aside)
      } catch {
        throw AuthError(
          .storage,
          "\(file.path) was read but could not be renamed to \(aside.lastPathComponent) "
            + "(\(error.localizedDescription)); nothing was imported. Check the folder is writable.")
      }
      movedTo = aside
      return true
    } onRollback: {
      if let movedTo { try? FileManager.default.moveItem(at: movedTo, to: file) }
    }
  }
}
