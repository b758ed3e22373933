import Foundation

/// The identity provider's credential that `accounts:signInWithIdp` carries in `postBody`: a
/// form (`id_token=…&providerId=apple.com&nonce=…`), written by `FirebaseBackend` and read by the
/// emulator, here and nowhere else.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
package struct IdpPostBody: Sendable, Equatable, CustomStringConvertible {
  package var providerId: String?
  /// The provider's ID token (`id_token`): a JWT, or for the emulator a JSON object.
  package var idToken: String?
  package var accessToken: String?
  /// Sign in with Apple's raw nonce, whose SHA-256 the ID token carries.
  package var nonce: String?
  /// OAuth 1.0a's secret beside `access_token` (X, formerly Twitter).
  package var oauthTokenSecret: String?
  /// An authorization code, for providers the server exchanges it with.
  package var code: String?
  /// The name Sign in with Apple gives on the first sign-in only (`user`).
  package var user: AppleUser?
  /// A SAML provider's response (`SAMLResponse`); the emulators' hosted handlers write it as JSON
  /// (`{"assertion":{"subject":{"nameId":…}}}`) and never as signed XML.
  package var samlResponse: String?

  package init() {}

  /// The name Sign in with Apple reports: `{"name":{"firstName":…,"lastName":…}}`.
  ///
  /// - Concurrency: `Sendable` value.
  package struct AppleUser: Codable, Sendable, Equatable {
    package var name: Name?

    package init(firstName: String?, lastName: String?) { name = Name(firstName: firstName, lastName: lastName) }

    /// - Concurrency: `Sendable` value.
    package struct Name: Codable, Sendable, Equatable {
      package var firstName: String?
      package var lastName: String?
    }
  }

  private enum Field: String {
    case providerId
    case idToken = "id_token"
    case accessToken = "access_token"
    case nonce
    case oauthTokenSecret = "oauth_token_secret"
    case code, user
    case samlResponse = "SAMLResponse"
  }

  /// The form, every value percent-encoded, in the order Firebase's SDKs write it.
  package var encoded: String {
    var fields: [(Field, String?)] = [(.idToken, idToken), (.accessToken, accessToken)]
    fields += [(.oauthTokenSecret, oauthTokenSecret), (.code, code), (.providerId, providerId), (.nonce, nonce)]
    fields.append((.samlResponse, samlResponse))
    if let user {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      fields.append((.user, (try? encoder.encode(user)).map { String(decoding: $0, as: UTF8.self) }))
    }
    return FormEncoding.encode(fields.compactMap { field, value in value.map { (field.rawValue, $0) } })
  }

  /// The credential `form` carries; fields it does not name are ignored, as Firebase ignores
  /// them, and a `user` that is not Apple's JSON is left out.
  package init(form: String) {
    self.init(fields: FormEncoding.fields(form))
  }

  /// The credential of a sign-in through a hosted handler: `requestUri` is the URL its page
  /// finished on, whose query and fragment carry the provider's answer. As Firebase reads them,
  /// `postBody`'s fields override the query's, and the fragment's override both.
  package init(requestURI: String?, postBody: String?) {
    var fields: [String: String] = [:]
    if let requestURI, let components = URLComponents(string: requestURI) {
      fields = FormEncoding.fields(components.percentEncodedQuery ?? "")
      fields.merge(FormEncoding.fields(postBody ?? "")) { $1 }
      fields.merge(FormEncoding.fields(components.percentEncodedFragment ?? "")) { $1 }
    } else {
      fields = FormEncoding.fields(postBody ?? "")
    }
    self.init(fields: fields)
  }

  private init(fields: [String: String]) {
    func value(_ field: Field) -> String? { fields[field.rawValue].flatMap { $0.isEmpty ? nil : $0 } }
    providerId = value(.providerId)
    idToken = value(.idToken)
    accessToken = value(.accessToken)
    nonce = value(.nonce)
    oauthTokenSecret = value(.oauthTokenSecret)
    code = value(.code)
    user = value(.user).flatMap { try? JSONDecoder().decode(AppleUser.self, from: Data($0.utf8)) }
    samlResponse = value(.samlResponse)
  }

  package var description: String { "IdpPostBody(\(providerId ?? "no provider"), tokens redacted)" }
}
