import Foundation
import SignInKitEmbedded

/// What a web page of the emulator knows: the service's context of the call, and which origins
/// the server serves (a page redirects only to one of them).
///
/// - Concurrency: `Sendable` value.
struct EmulatorPageContext: Sendable {
  let service: ServiceContext
  let policy: EmulatorRequestPolicy

  /// Where this server's links start.
  var baseURL: URL { service.baseURL }
  /// The project the call is for.
  var project: EmbeddedBackend { service.project }
  /// The project's tenants.
  var tenants: ServiceTenants { service.tenants }
}
