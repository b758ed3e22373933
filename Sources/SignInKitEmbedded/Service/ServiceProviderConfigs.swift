import Foundation
import SignInKit
import SignInWire

/// The OIDC and SAML provider configurations of one project or tenant, as the v2 admin API
/// keeps them (`oauthIdpConfigs/oidc.NAME`, `inboundSamlConfigs/saml.NAME`): what the Admin
/// SDKs' `create_oidc_provider_config`, `create_saml_provider_config` and their get, update,
/// list and delete calls manage. Kept in the project's (or tenant's) database, read on every
/// call and changed inside its transactions, so several processes on one folder share them.
///
/// They decide which `oidc.*` and `saml.*` providers the hosted handler page offers; a
/// federated sign-in to `signin serve` takes the emulator's fake IdP tokens for any provider id.
///
/// - Concurrency: `Sendable` value; the backend (an actor) owns the database.
package struct ServiceProviderConfigs: Sendable {
  package let backend: EmbeddedBackend
  private let resourcePrefix: String
  package static let limit = 100
  package static let oidcKind = "oidc"
  package static let samlKind = "saml"

  /// - Parameter backend: the project's or tenant's backend; its database keeps them.
  package init(backend: EmbeddedBackend) {
    self.backend = backend
    let project = backend.configuration.projectID
    resourcePrefix =
      backend.configuration.tenantID.map { "projects/\(project)/tenants/\($0)" } ?? "projects/\(project)"
  }

  // MARK: OpenID Connect

  package func createOIDC(_ config: OAuthIdpConfig, id: String?) async throws -> OAuthIdpConfig {
    var made = config
    made.enabled = made.enabled ?? false
    return try await create(
      made, id: id, prefix: WireProviderID.oidcPrefix, kind: Self.oidcKind, collection: FirebaseAPI.oauthIdpConfigs
    ) { $0.name = $1 }
  }

  package func oidc(_ id: String) async throws -> OAuthIdpConfig { try await read(id, kind: Self.oidcKind) }

  package func updateOIDC(_ id: String, with change: OAuthIdpConfig, mask: FieldMask?) async throws -> OAuthIdpConfig {
    try await update(id, kind: Self.oidcKind) { (config: OAuthIdpConfig) in try config.updated(with: change, mask: mask)
    }
  }

  package func deleteOIDC(_ id: String) async throws { try await delete(id, kind: Self.oidcKind) }

  package func oidcPage(size: Int, after token: String?) async throws -> OAuthIdpConfigList {
    let (page, next): ([OAuthIdpConfig], String?) = try await self.page(Self.oidcKind, size: size, after: token)
    return OAuthIdpConfigList(page, nextPageToken: next)
  }

  // MARK: SAML

  package func createSAML(_ config: InboundSamlConfig, id: String?) async throws -> InboundSamlConfig {
    var made = config
    made.enabled = made.enabled ?? false
    return try await create(
      made, id: id, prefix: WireProviderID.samlPrefix, kind: Self.samlKind, collection: FirebaseAPI.inboundSamlConfigs
    ) { $0.name = $1 }
  }

  package func saml(_ id: String) async throws -> InboundSamlConfig { try await read(id, kind: Self.samlKind) }

  package func updateSAML(_ id: String, with change: InboundSamlConfig, mask: FieldMask?) async throws
    -> InboundSamlConfig
  {
    try await update(id, kind: Self.samlKind) { (config: InboundSamlConfig) in
      try config.updated(with: change, mask: mask)
    }
  }

  package func deleteSAML(_ id: String) async throws { try await delete(id, kind: Self.samlKind) }

  package func samlPage(size: Int, after token: String?) async throws -> InboundSamlConfigList {
    let (page, next): ([InboundSamlConfig], String?) = try await self.page(Self.samlKind, size: size, after: token)
    return InboundSamlConfigList(page, nextPageToken: next)
  }

  package static func notFound(_ id: String) -> FirebaseFailure {
    FirebaseFailure(.configurationNotFound, "no \(FirebaseFailure.printable(id))")
  }

  // MARK: - Private

  private func create<Config: WireBody>(
    _ config: Config, id: String?, prefix: String, kind: String, collection: String,
    named: (inout Config, String) -> Void
  ) async throws -> Config {
    guard let id, id.hasPrefix(prefix), id.count > prefix.count else {
      throw FirebaseFailure(.invalidProviderId, "name the configuration with its id in the query, \(prefix)NAME")
    }
    var made = config
    named(&made, "\(resourcePrefix)/\(collection)/\(id)")
    let value = try SortedJSON.data(made)
    switch try await backend.settings({ try $0.add(kind, key: id, value: value, limit: Self.limit) }) {
    case .added: return made
    case .exists: throw FirebaseFailure(.duplicateIdpConfig, "\(id) exists already; update it, or delete it first")
    case .full:
      throw FirebaseFailure(.quotaExceeded, "\(Self.limit) configurations of this kind exist; delete one first")
    }
  }

  private func read<Config: WireBody>(_ id: String, kind: String) async throws -> Config {
    guard let stored = try await backend.settings({ try $0.value(kind, key: id) }) else { throw Self.notFound(id) }
    return try JSONDecoder().decode(Config.self, from: stored)
  }

  private func update<Config: WireBody>(
    _ id: String, kind: String, _ change: @escaping @Sendable (Config) throws -> Config
  ) async throws -> Config {
    let changed = try await backend.settings { settings in
      try settings.change(kind, key: id) { stored in
        try SortedJSON.data(try change(try JSONDecoder().decode(Config.self, from: stored)))
      }
    }
    guard let changed else { throw Self.notFound(id) }
    return try JSONDecoder().decode(Config.self, from: changed)
  }

  private func delete(_ id: String, kind: String) async throws {
    guard try await backend.settings({ try $0.remove(kind, key: id) }) else { throw Self.notFound(id) }
  }

  /// A page in provider-id order after `token`.
  private func page<Config: WireBody>(_ kind: String, size: Int, after token: String?) async throws -> (
    [Config], String?
  ) {
    let all = try await backend.settings { try $0.all(kind) }.filter { $0.key > (token ?? "") }
    let page = Array(all.prefix(size))
    let configs = try page.map { try JSONDecoder().decode(Config.self, from: $0.value) }
    return (configs, all.count > page.count ? page.last?.key : nil)
  }

}
