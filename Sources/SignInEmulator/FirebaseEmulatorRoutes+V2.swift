import Foundation
import SignInKit
import SignInKitEmbedded

extension FirebaseEmulatorRoutes {
  /// The v2 admin API under `/identitytoolkit.googleapis.com/v2/projects/`: `path` is what
  /// follows, `P/tenants[/T]` (``FirebaseEmulatorTenantAdmin``) or
  /// `P[/tenants/T]/oauthIdpConfigs[/ID]` and `…/inboundSamlConfigs[/ID]`
  /// (``FirebaseEmulatorProviderConfigAdmin``).
  func v2Project(_ path: String, method: String, query: [String: String], body: Data) async -> Reply {
    let project = String(path.prefix { $0 != "/" })
    var rest = String(path.dropFirst(project.count))
    var backend: EmbeddedBackend
    switch projects.backend(for: project) {
    case .refused(let refusal): return refusal
    case .project(let found): backend = found
    }
    if let tenantPath = rest.dropPrefix("/tenants/"), let slash = tenantPath.firstIndex(of: "/"),
      EmulatorProviderConfigs.Kind.allCases.contains(where: { tenantPath[slash...].hasPrefix("/\($0.rawValue)") })
    {
      // A tenant's provider configurations.
      do {
        backend = try projects.tenants(of: backend).backend(for: String(tenantPath[..<slash]))
      } catch {
        return Self.failure(AuthError.wrapping(error))
      }
      rest = String(tenantPath[slash...])
    } else if let tenantPath = rest.dropPrefix("/tenants") {
      return await FirebaseEmulatorTenantAdmin(tenants: projects.tenants(of: backend))
        .reply(method: method, path: tenantPath, query: query, body: body)
    }
    for kind in EmulatorProviderConfigs.Kind.allCases {
      if let configPath = rest.dropPrefix("/\(kind.rawValue)") {
        return FirebaseEmulatorProviderConfigAdmin(configs: projects.providerConfigs(of: backend))
          .reply(method: method, kind: kind, path: configPath, query: query, body: body)
      }
    }
    return Self.failure(404, "NOT_FOUND: /v2/projects/\(path)")
  }
}
