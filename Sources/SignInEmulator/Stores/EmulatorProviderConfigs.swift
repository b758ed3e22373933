import Foundation
import SignInConcurrency
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import SignInWire

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
  /// What the file keeps: each kind's configurations by provider id.
  private struct Table: Codable {
    var oauthIdpConfigs: [String: OAuthIdpConfig] = [:]
    var inboundSamlConfigs: [String: InboundSamlConfig] = [:]
  }

  private let file: URL?
  private let resourcePrefix: String
  private let table: Locked<Table>
  static let limit = 100

  /// - Parameter backend: the project's or tenant's backend; its folder keeps the file.
  init(backend: EmbeddedBackend) {
    file = backend.directory?.appendingPathComponent("provider-configs.json")
    let project = backend.configuration.projectID
    resourcePrefix =
      backend.configuration.tenantID.map { "projects/\(project)/tenants/\($0)" } ?? "projects/\(project)"
    let loaded = file.flatMap { try? FileContents.read($0, what: "The provider configurations") }
      .flatMap { try? JSONDecoder().decode(Table.self, from: $0) }
    table = Locked(loaded ?? Table())
  }

  // MARK: OpenID Connect

  func createOIDC(_ config: OAuthIdpConfig, id: String?) throws -> OAuthIdpConfig {
    try create(
      config, id: id, prefix: WireProviderID.oidcPrefix, in: \.oauthIdpConfigs,
      collection: FirebaseAPI.oauthIdpConfigs
    ) {
      var made = $0
      made.name = $1
      made.enabled = made.enabled ?? false
      return made
    }
  }

  func oidc(_ id: String) throws -> OAuthIdpConfig {
    guard let config = table.withLock({ $0.oauthIdpConfigs[id] }) else { throw Self.notFound(id) }
    return config
  }

  func updateOIDC(_ id: String, with change: OAuthIdpConfig, mask: FieldMask?) throws -> OAuthIdpConfig {
    try update(id, in: \.oauthIdpConfigs) { try $0.updated(with: change, mask: mask) }
  }

  func deleteOIDC(_ id: String) throws { try delete(id, in: \.oauthIdpConfigs) }

  func oidcPage(size: Int, after token: String?) -> OAuthIdpConfigList {
    let (page, next) = self.page(\.oauthIdpConfigs, size: size, after: token)
    return OAuthIdpConfigList(page, nextPageToken: next)
  }

  // MARK: SAML

  func createSAML(_ config: InboundSamlConfig, id: String?) throws -> InboundSamlConfig {
    try create(
      config, id: id, prefix: WireProviderID.samlPrefix, in: \.inboundSamlConfigs,
      collection: FirebaseAPI.inboundSamlConfigs
    ) {
      var made = $0
      made.name = $1
      made.enabled = made.enabled ?? false
      return made
    }
  }

  func saml(_ id: String) throws -> InboundSamlConfig {
    guard let config = table.withLock({ $0.inboundSamlConfigs[id] }) else { throw Self.notFound(id) }
    return config
  }

  func updateSAML(_ id: String, with change: InboundSamlConfig, mask: FieldMask?) throws -> InboundSamlConfig {
    try update(id, in: \.inboundSamlConfigs) { try $0.updated(with: change, mask: mask) }
  }

  func deleteSAML(_ id: String) throws { try delete(id, in: \.inboundSamlConfigs) }

  func samlPage(size: Int, after token: String?) -> InboundSamlConfigList {
    let (page, next) = self.page(\.inboundSamlConfigs, size: size, after: token)
    return InboundSamlConfigList(page, nextPageToken: next)
  }

  static func notFound(_ id: String) -> FirebaseFailure {
    FirebaseFailure(.configurationNotFound, "no \(EmulatorRequestPolicy.printable(id))")
  }

  // MARK: - Private

  private func create<Config: WireBody>(
    _ config: Config, id: String?, prefix: String, in table: WritableKeyPath<Table, [String: Config]>,
    collection kind: String, named: (Config, String) -> Config
  ) throws -> Config {
    let collection = table
    guard let id, id.hasPrefix(prefix), id.count > prefix.count else {
      throw FirebaseFailure(.invalidProviderId, "name the configuration with its id in the query, \(prefix)NAME")
    }
    return try self.table.withLock { table in
      guard table[keyPath: collection][id] == nil else {
        throw FirebaseFailure(.duplicateIdpConfig, "\(id) exists already; update it, or delete it first")
      }
      guard table[keyPath: collection].count < Self.limit else {
        throw FirebaseFailure(.quotaExceeded, "\(Self.limit) configurations of this kind exist; delete one first")
      }
      let made = named(config, "\(resourcePrefix)/\(kind)/\(id)")
      table[keyPath: collection][id] = made
      try save(table)
      return made
    }
  }

  private func update<Config>(
    _ id: String, in collection: WritableKeyPath<Table, [String: Config]>, _ change: (Config) throws -> Config
  ) throws -> Config {
    try table.withLock { table in
      guard let config = table[keyPath: collection][id] else { throw Self.notFound(id) }
      let updated = try change(config)
      table[keyPath: collection][id] = updated
      try save(table)
      return updated
    }
  }

  private func delete<Config>(_ id: String, in collection: WritableKeyPath<Table, [String: Config]>) throws {
    try table.withLock { table in
      guard table[keyPath: collection].removeValue(forKey: id) != nil else { throw Self.notFound(id) }
      try save(table)
    }
  }

  /// A page in provider-id order after `token`.
  private func page<Config>(_ collection: KeyPath<Table, [String: Config]>, size: Int, after token: String?) -> (
    [Config], String?
  ) {
    let all = table.withLock { $0[keyPath: collection] }.sorted { $0.key < $1.key }.filter { $0.key > (token ?? "") }
    let page = Array(all.prefix(size))
    return (page.map(\.value), all.count > page.count ? page.last?.key : nil)
  }

  private func save(_ table: Table) throws {
    guard let file else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let data = try encoder.encode(table)
    try AuthError.storage { () throws(FileError) in try AtomicFile.write(data, to: file) }
  }
}
