import Foundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// What a route handler knows besides its body: who called, the project the path or the API key
/// names, the tenant the path or the body names, the path's other placeholders, and where this
/// server's links start.
///
/// The tenant's backend is made when a handler first asks for it (``backend()``), so calls that
/// manage tenants themselves never make one by naming it.
///
/// - Concurrency: `Sendable` value; the backends it hands out are actors.
struct EmulatorContext: Sendable {
  /// The caller sent the owner credential (`Authorization: Bearer owner`).
  let isAdmin: Bool
  /// The call came on an administrator's `projects/P…` path.
  let isScoped: Bool
  /// The path's placeholders: `project`, `tenant`, `id`.
  let values: [String: String]
  /// The project the call is for.
  let project: EmbeddedBackend
  /// The tenant the path or the body names, if any.
  let tenantID: String?
  let projects: EmulatorProjects
  /// Which hosts and origins this server serves.
  let policy: EmulatorRequestPolicy
  /// Where this server's links start (``EmulatorRequestPolicy/baseURL``).
  var baseURL: URL { policy.baseURL }
  /// Whether the call may make the project or tenant it names: not a `GET` or `HEAD`, which
  /// any web page can send.
  var creates = true
  /// The named tenant's settings as ``readTenant()`` found them, so that a client call, which
  /// checks them before its handler runs, reads them from the database once.
  private(set) var readSettings: Tenant?? = nil

  /// The project's tenants.
  var tenants: EmulatorTenants { projects.tenants(of: project) }

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
  func backend() async throws -> EmbeddedBackend {
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
