import Foundation
import SignInKit
import SignInWire

/// The v2 admin API's provider configurations of a project or tenant (``ServiceProviderConfigs``):
/// `oauthIdpConfigs` and `inboundSamlConfigs`, each created (the id in the query), listed a page
/// at a time (`pageSize`, default 100), read, updated (`updateMask`) and deleted.
enum ProviderConfigEndpoints {
  // MARK: OpenID Connect

  static func createOIDC(_ body: NewOAuthIdpConfig, _ context: ServiceContext) async throws -> OAuthIdpConfig {
    try await configs(context).createOIDC(body.config, id: body.oauthIdpConfigId)
  }

  static func listOIDC(_ body: PageQuery, _ context: ServiceContext) async throws -> OAuthIdpConfigList {
    try await configs(context).oidcPage(size: try pageSize(body), after: body.pageToken)
  }

  static func getOIDC(_ body: NoBody, _ context: ServiceContext) async throws -> OAuthIdpConfig {
    try await configs(context).oidc(try context.value("id"))
  }

  static func updateOIDC(_ body: ResourceUpdate<OAuthIdpConfig>, _ context: ServiceContext) async throws
    -> OAuthIdpConfig
  {
    try await configs(context).updateOIDC(try context.value("id"), with: body.resource, mask: try mask(of: body))
  }

  static func deleteOIDC(_ body: NoBody, _ context: ServiceContext) async throws -> NoBody {
    try await configs(context).deleteOIDC(try context.value("id"))
    return NoBody()
  }

  // MARK: SAML

  static func createSAML(_ body: NewInboundSamlConfig, _ context: ServiceContext) async throws -> InboundSamlConfig {
    try await configs(context).createSAML(body.config, id: body.inboundSamlConfigId)
  }

  static func listSAML(_ body: PageQuery, _ context: ServiceContext) async throws -> InboundSamlConfigList {
    try await configs(context).samlPage(size: try pageSize(body), after: body.pageToken)
  }

  static func getSAML(_ body: NoBody, _ context: ServiceContext) async throws -> InboundSamlConfig {
    try await configs(context).saml(try context.value("id"))
  }

  static func updateSAML(_ body: ResourceUpdate<InboundSamlConfig>, _ context: ServiceContext) async throws
    -> InboundSamlConfig
  {
    try await configs(context).updateSAML(try context.value("id"), with: body.resource, mask: try mask(of: body))
  }

  static func deleteSAML(_ body: NoBody, _ context: ServiceContext) async throws -> NoBody {
    try await configs(context).deleteSAML(try context.value("id"))
    return NoBody()
  }

  // MARK: - Private

  private static func configs(_ context: ServiceContext) async throws -> ServiceProviderConfigs {
    ServiceProviderConfigs(backend: try await context.backend())
  }

  private static func pageSize(_ query: PageQuery) throws -> Int {
    Int(try RequestNumber.integer(query: query.pageSize, field: "pageSize", in: 1...100) ?? 100)
  }

  private static func mask<Config: WireBody>(of update: ResourceUpdate<Config>) throws(FirebaseFailure) -> FieldMask? {
    guard let text = update.updateMask, !text.isEmpty else { return nil }
    return try FieldMask(text, of: Config.self)
  }
}
