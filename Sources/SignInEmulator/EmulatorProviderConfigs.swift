import Foundation
import SignInConcurrency
import SignInFoundation
import SignInKit
import SignInKitEmbedded

/// The OIDC and SAML provider configurations of one project or tenant, as the v2 admin API
/// keeps them (`oauthIdpConfigs/oidc.NAME`, `inboundSamlConfigs/saml.NAME`): what the Admin
/// SDKs' `create_oidc_provider_config`, `create_saml_provider_config` and their get, update,
/// list and delete calls manage. Kept in `provider-configs.json` in the backend's folder when it
/// has one.
///
/// They are stored and answered, not used to sign anyone in: a federated sign-in to
/// `signin serve` takes the emulator's fake IdP tokens for any provider id.
///
/// - Concurrency: `Sendable`; a lock guards the table (and the file's writes).
final class EmulatorProviderConfigs: Sendable {
  /// The two kinds, by their collection's name in the path.
  enum Kind: String, Sendable, CaseIterable {
    case oidc = "oauthIdpConfigs"
    case saml = "inboundSamlConfigs"

    /// The provider id's required prefix.
    var prefix: String { self == .oidc ? "oidc." : "saml." }
    /// The query parameter that names a new configuration.
    var idParameter: String { self == .oidc ? "oauthIdpConfigId" : "inboundSamlConfigId" }
  }

  private let file: URL?
  private let resourcePrefix: String
  /// By kind, then provider id.
  private let table: Locked<[String: [String: [String: JSONValue]]]>
  static let limit = 100

  /// - Parameter backend: the project's or tenant's backend; its folder keeps the file.
  init(backend: EmbeddedBackend) {
    file = backend.directory?.appendingPathComponent("provider-configs.json")
    let project = backend.configuration.projectID
    resourcePrefix =
      backend.configuration.tenantID.map { "projects/\(project)/tenants/\($0)" } ?? "projects/\(project)"
    var loaded: [String: [String: [String: JSONValue]]] = [:]
    if let file, let data = try? FileContents.read(file, what: "The provider configurations"),
      case .object(let kinds)? = try? JSONDecoder().decode(JSONValue.self, from: data)
    {
      for (kind, configs) in kinds {
        loaded[kind] = configs.object?.compactMapValues(\.object) ?? [:]
      }
    }
    table = Locked(loaded)
  }

  func create(_ kind: Kind, id: String?, body: [String: JSONValue]) throws -> [String: JSONValue] {
    guard let id, id.hasPrefix(kind.prefix), id.count > kind.prefix.count else {
      throw Self.invalid(
        "INVALID_PROVIDER_ID : name the configuration with ?\(kind.idParameter)=\(kind.prefix)NAME")
    }
    return try table.withLock { table in
      guard table[kind.rawValue]?[id] == nil else {
        throw Self.invalid("DUPLICATE_IDP_CONFIG : \(id) exists already; update it, or delete it first")
      }
      guard (table[kind.rawValue]?.count ?? 0) < Self.limit else {
        throw Self.invalid("QUOTA_EXCEEDED : \(Self.limit) configurations of this kind exist; delete one first")
      }
      var config = body
      config["name"] = .string("\(resourcePrefix)/\(kind.rawValue)/\(id)")
      config["enabled"] = config["enabled"] ?? .bool(false)
      table[kind.rawValue, default: [:]][id] = config
      try save(table)
      return config
    }
  }

  func get(_ kind: Kind, id: String) throws -> [String: JSONValue] {
    guard let config = table.withLock({ $0[kind.rawValue]?[id] }) else { throw Self.notFound(id) }
    return config
  }

  /// Changes the fields `mask` names (comma-separated, dotted for nested fields), or every
  /// field the body has when there is no mask.
  func update(_ kind: Kind, id: String, body: [String: JSONValue], mask: String?) throws -> [String: JSONValue] {
    try table.withLock { table in
      guard var config = table[kind.rawValue]?[id] else { throw Self.notFound(id) }
      let paths =
        mask.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        ?? body.keys.filter { $0 != "name" }
      for path in paths where !path.isEmpty && path != "name" {
        Self.set(path.split(separator: ".").map(String.init), from: body, in: &config)
      }
      table[kind.rawValue]?[id] = config
      try save(table)
      return config
    }
  }

  func delete(_ kind: Kind, id: String) throws {
    try table.withLock { table in
      guard table[kind.rawValue]?.removeValue(forKey: id) != nil else { throw Self.notFound(id) }
      try save(table)
    }
  }

  /// A page in provider-id order after `pageToken`.
  func list(_ kind: Kind, pageSize: Int, after pageToken: String?) -> (configs: [[String: JSONValue]], next: String?) {
    let all = table.withLock { $0[kind.rawValue] ?? [:] }.sorted { $0.key < $1.key }
      .filter { $0.key > (pageToken ?? "") }
    let page = Array(all.prefix(pageSize))
    return (page.map(\.value), all.count > page.count ? page.last?.key : nil)
  }

  static func notFound(_ id: String) -> AuthError {
    AuthError(.noSuchProvider, "no configuration \(id)", serverMessage: "CONFIGURATION_NOT_FOUND : no \(id)")
  }

  // MARK: - Private

  private static func invalid(_ message: String) -> AuthError {
    AuthError(.invalidResponse, message, serverMessage: message)
  }

  /// Copies the value at `path` in `body` to the same place in `config`; an absent value
  /// removes it, as an update mask does.
  private static func set(_ path: [String], from body: [String: JSONValue], in config: inout [String: JSONValue]) {
    guard let head = path.first else { return }
    if path.count == 1 {
      config[head] = body[head]
      return
    }
    var inner = config[head]?.object ?? [:]
    set(Array(path.dropFirst()), from: body[head]?.object ?? [:], in: &inner)
    config[head] = .object(inner)
  }

  private func save(_ table: [String: [String: [String: JSONValue]]]) throws {
    guard let file else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let document = JSONValue.object(table.mapValues { .object($0.mapValues(JSONValue.object)) })
    let data = try encoder.encode(document)
    try AuthError.storage { () throws(FileError) in try AtomicFile.write(data, to: file) }
  }
}
