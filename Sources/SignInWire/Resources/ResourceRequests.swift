import Foundation

/// An update of a v2 resource (`PATCH …/tenants/T`, `…/oauthIdpConfigs/ID`): the resource's
/// fields in the body and, in the query, the `updateMask` that names the ones to change.
///
/// - Concurrency: `Sendable` value.
package struct ResourceUpdate<Resource: WireBody>: WireBody {
  package var resource: Resource
  /// The fields to change, comma-separated (`displayName,mfaConfig.state`); none means all.
  package var updateMask: String?

  package init(_ resource: Resource, updateMask: String? = nil) {
    self.resource = resource
    self.updateMask = updateMask
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case updateMask
  }

  package static var fieldNames: [String] { Resource.fieldNames + CodingKeys.allCases.map(\.stringValue) }
  package static var queryKeys: [CodingKeys] { [.updateMask] }
  package static var unlistedFields: [String: String] { Resource.unlistedFields }

  package init(from decoder: any Decoder) throws {
    resource = try Resource(from: decoder)
    updateMask = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .updateMask)
  }

  package func encode(to encoder: any Encoder) throws {
    try resource.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(updateMask, forKey: .updateMask)
  }
}

/// A new OpenID Connect provider configuration: the configuration in the body, its id
/// (`oidc.NAME`) in the query's `oauthIdpConfigId`.
///
/// - Concurrency: `Sendable` value.
package struct NewOAuthIdpConfig: WireBody {
  package var config: OAuthIdpConfig
  package var oauthIdpConfigId: String?

  package init(_ config: OAuthIdpConfig, id: String?) {
    self.config = config
    oauthIdpConfigId = id
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case oauthIdpConfigId
  }

  package static var fieldNames: [String] { OAuthIdpConfig.fieldNames + CodingKeys.allCases.map(\.stringValue) }
  package static var queryKeys: [CodingKeys] { [.oauthIdpConfigId] }

  package init(from decoder: any Decoder) throws {
    config = try OAuthIdpConfig(from: decoder)
    oauthIdpConfigId = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
      String.self, forKey: .oauthIdpConfigId)
  }

  package func encode(to encoder: any Encoder) throws {
    try config.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(oauthIdpConfigId, forKey: .oauthIdpConfigId)
  }
}

/// A new SAML provider configuration: the configuration in the body, its id (`saml.NAME`) in the
/// query's `inboundSamlConfigId`.
///
/// - Concurrency: `Sendable` value.
package struct NewInboundSamlConfig: WireBody {
  package var config: InboundSamlConfig
  package var inboundSamlConfigId: String?

  package init(_ config: InboundSamlConfig, id: String?) {
    self.config = config
    inboundSamlConfigId = id
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case inboundSamlConfigId
  }

  package static var fieldNames: [String] { InboundSamlConfig.fieldNames + CodingKeys.allCases.map(\.stringValue) }
  package static var queryKeys: [CodingKeys] { [.inboundSamlConfigId] }

  package init(from decoder: any Decoder) throws {
    config = try InboundSamlConfig(from: decoder)
    inboundSamlConfigId = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
      String.self, forKey: .inboundSamlConfigId)
  }

  package func encode(to encoder: any Encoder) throws {
    try config.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(inboundSamlConfigId, forKey: .inboundSamlConfigId)
  }
}
