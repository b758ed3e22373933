import Foundation
import SignInWire

/// One call of ``IdentityToolkitService`` as a transport hands it over, before the service
/// decides anything: who called, on which of the endpoint's paths, and with which placeholders.
///
/// - Concurrency: `Sendable` value.
package struct ServiceCall: Sendable {
  /// The caller presented the administrator's credential (the Admin SDKs' `Bearer owner`).
  package var isAdmin: Bool
  /// The caller named an API key, as every app's call does.
  package var namesAnAPIKey: Bool
  /// The path the call came on: an endpoint answers on several (`v1/accounts:signUp`,
  /// `v1/projects/P/accounts`), and which one decides who may call and what it means.
  package var path: EndpointPath
  /// The path's placeholders: `project`, `tenant`, `id`.
  package var values: [String: String]
  /// Whether the call may make the project or tenant it names: `false` for a `GET` or `HEAD`,
  /// which any web page can send.
  package var creates: Bool
  /// Where the service's links start (the emulator's own address).
  package var baseURL: URL

  package init(
    isAdmin: Bool, namesAnAPIKey: Bool, path: EndpointPath, values: [String: String] = [:], creates: Bool = true,
    baseURL: URL
  ) {
    self.isAdmin = isAdmin
    self.namesAnAPIKey = namesAnAPIKey
    self.path = path
    self.values = values
    self.creates = creates
    self.baseURL = baseURL
  }
}
