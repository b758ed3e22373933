import Foundation
import SignInKit
import SignInWire

/// What an endpoint's handler knows besides its body: who called, the project the path or the
/// API key names, the tenant the path or the body names, the path's other placeholders, and
/// where the service's links start. ``IdentityToolkitService`` makes it from a ``ServiceCall``.
///
/// The tenant's backend is made when a handler first asks for it (``backend()``), so calls that
/// manage tenants themselves never make one by naming it.
///
/// - Concurrency: `Sendable` value; the backends it hands out are actors.
package struct ServiceContext: Sendable {
  /// The caller is the project's administrator.
  package let isAdmin: Bool
  /// The call came on an administrator's `projects/P…` path.
  package let isScoped: Bool
  /// The path's placeholders: `project`, `tenant`, `id`.
  package let values: [String: String]
  /// The project the call is for.
  package let project: EmbeddedBackend
  /// The tenant the path or the body names, if any.
  package let tenantID: String?
  package let projects: ServiceProjects
  /// Where the service's links start (the emulator's own address).
  package let baseURL: URL
  /// Whether the call may make the project or tenant it names: not a `GET` or `HEAD`, which
  /// any web page can send.
  package let creates: Bool
  /// The named tenant's settings as ``readTenant()`` found them, so that a client call, which
  /// checks them before its handler runs, reads them from the database once.
  private(set) var readSettings: Tenant?? = nil

  /// The project's tenants.
  package var tenants: ServiceTenants { projects.tenants(of: project) }

  /// The settings of the tenant the call names, when it exists: as ``readTenant()`` kept them,
  /// or read now.
  func tenant() async throws -> Tenant? {
    if let readSettings { return readSettings }
    guard let tenantID else { return nil }
    return try await tenants.tenant(tenantID)
  }

  /// Reads the named tenant's settings and keeps them for the rest of the call.
  mutating func readTenant() async throws -> Tenant? {
    let tenant = try await tenant()
    readSettings = .some(tenant)
    return tenant
  }

  /// The backend the call reaches: the tenant's when one is named (made on first use, every
  /// sign-in method on), else the project's.
  package func backend() async throws -> EmbeddedBackend {
    guard let tenantID else { return project }
    let exists = readSettings.map { $0 != nil } ?? false
    return try await tenants.backend(for: tenantID, creating: creates, knownToExist: exists)
  }

  /// The placeholder `name` of the path.
  func value(_ name: String) throws(FirebaseFailure) -> String {
    guard let value = values[name] else { throw FirebaseFailure(.notFound, "the path names no \(name)") }
    return value
  }

  /// A sign-in method a tenant can turn off.
  enum TenantSetting {
    /// Sign-up with an email and password (`allowPasswordSignup`).
    case passwordSignUp
    /// Anonymous sign-up (`enableAnonymousUser`).
    case anonymousSignUp
    /// Sign-in with a password, and a password reset (`allowPasswordSignup`).
    case passwordSignIn
    /// Sign-in with an emailed link (`enableEmailLinkSignin`).
    case emailLink
  }

  /// Refuses the call when the tenant it names has `setting` off, with the emulator's error.
  func requireTenant(allows setting: TenantSetting) async throws {
    guard let tenant = try await tenant() else { return }
    switch setting {
    case .passwordSignUp where tenant.allowPasswordSignup != true: throw FirebaseFailure(.operationNotAllowed)
    case .anonymousSignUp where tenant.enableAnonymousUser != true: throw FirebaseFailure(.adminOnlyOperation)
    case .passwordSignIn where tenant.allowPasswordSignup != true: throw FirebaseFailure(.passwordLoginDisabled)
    case .emailLink where tenant.enableEmailLinkSignin != true: throw FirebaseFailure(.operationNotAllowed)
    default: return
    }
  }
}
