/// An OpenID Connect provider of a project or tenant (`oauthIdpConfigs/oidc.NAME`): the body of a
/// create (the id in the query's `oauthIdpConfigId`) or an update (`updateMask`), and the reply.
///
/// - Concurrency: `Sendable` value.
package struct OAuthIdpConfig: WireBody {
  /// `projects/P[/tenants/T]/oauthIdpConfigs/oidc.NAME`.
  package var name: String?
  package var clientId: String?
  package var issuer: String?
  package var displayName: String?
  package var enabled: Bool?
  package var clientSecret: String?
  package var responseType: ResponseType?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, clientId, issuer, displayName, enabled, clientSecret, responseType
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + ResponseType.fieldNames }

  /// Which OAuth flow the provider's sign-in uses.
  ///
  /// - Concurrency: `Sendable` value.
  package struct ResponseType: WireBody {
    package var code: Bool?
    package var idToken: Bool?
    package var token: Bool?

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case code, idToken, token
    }
  }
}

/// A SAML provider of a project or tenant (`inboundSamlConfigs/saml.NAME`): the body of a create
/// (the id in the query's `inboundSamlConfigId`) or an update (`updateMask`), and the reply.
///
/// - Concurrency: `Sendable` value.
package struct InboundSamlConfig: WireBody {
  /// `projects/P[/tenants/T]/inboundSamlConfigs/saml.NAME`.
  package var name: String?
  package var displayName: String?
  package var enabled: Bool?
  package var idpConfig: IdpConfig?
  package var spConfig: SpConfig?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, displayName, enabled, idpConfig, spConfig
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + IdpConfig.fieldNames + SpConfig.fieldNames + SpCertificate.fieldNames
  }

  /// The identity provider's side.
  ///
  /// - Concurrency: `Sendable` value.
  package struct IdpConfig: WireBody {
    package var idpEntityId: String?
    package var ssoUrl: String?
    package var idpCertificates: [IdpCertificate]?
    package var signRequest: Bool?

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case idpEntityId, ssoUrl, idpCertificates, signRequest
    }
  }

  /// The service provider's side: this project.
  ///
  /// - Concurrency: `Sendable` value.
  package struct SpConfig: WireBody {
    package var spEntityId: String?
    package var callbackUri: String?
    package var spCertificates: [SpCertificate]?

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case spEntityId, callbackUri, spCertificates
    }
  }

  /// The identity provider's X.509 certificate in PEM.
  ///
  /// - Concurrency: `Sendable` value.
  package struct IdpCertificate: WireBody {
    package var x509Certificate: String?

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case x509Certificate
    }
  }

  /// The project's own X.509 certificate in PEM, and when it expires.
  ///
  /// - Concurrency: `Sendable` value.
  package struct SpCertificate: WireBody {
    package var x509Certificate: String?
    package var expiresAt: String?

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case x509Certificate, expiresAt
    }
  }
}

/// A page of OpenID Connect provider configurations.
///
/// - Concurrency: `Sendable` value.
package struct OAuthIdpConfigList: WireBody {
  package var oauthIdpConfigs: [OAuthIdpConfig]?
  package var nextPageToken: String?

  package init(_ configs: [OAuthIdpConfig], nextPageToken: String?) {
    oauthIdpConfigs = configs
    self.nextPageToken = nextPageToken
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case oauthIdpConfigs, nextPageToken
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + OAuthIdpConfig.fieldNames }
}

/// A page of SAML provider configurations.
///
/// - Concurrency: `Sendable` value.
package struct InboundSamlConfigList: WireBody {
  package var inboundSamlConfigs: [InboundSamlConfig]?
  package var nextPageToken: String?

  package init(_ configs: [InboundSamlConfig], nextPageToken: String?) {
    inboundSamlConfigs = configs
    self.nextPageToken = nextPageToken
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case inboundSamlConfigs, nextPageToken
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + InboundSamlConfig.fieldNames }
}
