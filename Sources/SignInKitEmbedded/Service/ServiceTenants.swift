import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// The tenants of one project in `signin serve`: their settings (the v2 API's ``Tenant``), kept
/// in the project's database, and for each, accounts of its own (a backend beside the
/// project's, signing with its key, whose tokens name the tenant) in the same database, so a
/// tenant opens no file.
///
/// The settings are read from the database on every call and changed inside its transactions,
/// so several processes on one folder share one set of tenants: what one makes, changes or
/// deletes, the others see on their next call, and the cap is counted across all of them.
///
/// A tenant a client call names before anyone created it is made then, with every sign-in
/// method on, as the emulator does for convenience; production would refuse the call. That holds
/// for a tenant deleted earlier too, on purpose: the Firebase emulator makes it again the same way
/// (its `getTenantProject`), and test suites that name a fixed tenant id rely on it. A `GET`
/// makes none, and no call makes more than ``limit``.
///
/// - Concurrency: `Sendable`; a lock guards the tenants' open backends, and the project (an
///   actor) its database.
package final class ServiceTenants: Sendable {
  package let project: EmbeddedBackend
  /// The backends of the tenants this process has opened, by id.
  private let opened = Locked<[String: EmbeddedBackend]>([:])
  /// How many tenants one project holds before creating more is refused.
  package static let limit = 100
  /// This table's limit: ``limit`` unless the server was given another.
  package let limit: Int
  /// The kind of the project's settings that are its tenants.
  package static let kind = "tenant"

  package init(project: EmbeddedBackend, limit: Int = ServiceTenants.limit) {
    self.project = project
    self.limit = limit
  }

  /// Every tenant in id order.
  package func all() async throws -> [Tenant] {
    try await project.settings { try $0.all(Self.kind) }.compactMap {
      try? JSONDecoder().decode(Tenant.self, from: $0.value)
    }
  }

  /// Tenant `id`'s settings, if it exists.
  package func tenant(_ id: String) async throws -> Tenant? {
    try await project.settings { try $0.value(Self.kind, key: id) }.flatMap {
      try? JSONDecoder().decode(Tenant.self, from: $0)
    }
  }

  /// A new tenant with a random id and the settings in `body` (production's defaults, all off,
  /// for the others).
  package func create(_ body: Tenant) async throws -> Tenant {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    let id = String(try Crypto.randomBytes(20).map { alphabet[Int($0) % alphabet.count] })
    let tenant = Self.made(id: id, in: project, from: body)
    try await add(tenant, refusal: "delete one first")
    return tenant
  }

  /// The backend of tenant `id`, making the tenant (every method on) when it is new and
  /// `creating`; when not, a new tenant's that is not kept (a `GET` makes nothing). With
  /// `knownToExist`, the caller read the tenant's settings already, and they are not read again.
  ///
  /// - Throws: `INVALID_TENANT_ID`; `QUOTA_EXCEEDED` when making it would pass ``limit``.
  package func backend(for id: String, creating: Bool = true, knownToExist: Bool = false) async throws
    -> EmbeddedBackend
  {
    guard ServiceProjects.isProjectID(id) else {
      throw FirebaseFailure(.invalidTenantId, "use lowercase letters, digits and hyphens for a tenant id")
    }
    if !knownToExist, try await project.settings({ try $0.value(Self.kind, key: id) }) == nil {
      guard creating else {
        return try project.sibling(projectID: project.configuration.projectID, tenantID: id, directory: nil)
      }
      var open = Tenant()
      open.allowPasswordSignup = true
      open.enableEmailLinkSignin = true
      open.enableAnonymousUser = true
      // The cap holds however a tenant is made: by the admin API or by a client naming it.
      try await add(Self.made(id: id, in: project, from: open), refusal: "delete one first, or name a tenant it has")
    }
    return try opened(id)
  }

  /// Tenant `id` changed by `change`: the fields `mask` names, or, with no mask, every field
  /// replaced (production's defaults for those `change` leaves out), as the emulator's update does.
  package func update(_ id: String, with change: Tenant, mask: FieldMask?) async throws -> Tenant {
    let project = project
    let changed = try await project.settings { settings in
      try settings.change(Self.kind, key: id) { stored in
        let old = try JSONDecoder().decode(Tenant.self, from: stored)
        var tenant: Tenant
        if let mask {
          tenant = try old.updated(with: change, mask: mask)
        } else {
          tenant = Self.made(id: id, in: project, from: change)
        }
        tenant.name = old.name
        tenant.tenantId = id
        return try SortedJSON.data(tenant)
      }
    }
    guard let changed else { throw Self.notFound(id) }
    return try JSONDecoder().decode(Tenant.self, from: changed)
  }

  /// Forgets tenant `id` and deletes its accounts.
  package func delete(_ id: String) async throws {
    guard try await project.settings({ try $0.remove(Self.kind, key: id) }) else { throw Self.notFound(id) }
    let backend = try opened(id)
    opened.withLock { $0[id] = nil }
    try await backend.deleteTenantData()
    await backend.close()
  }

  /// The backend of tenant `id` when the tenant exists.
  package func kept(_ id: String) async throws -> EmbeddedBackend? {
    guard try await project.settings({ try $0.value(Self.kind, key: id) }) != nil else { return nil }
    return try opened(id)
  }

  package static func notFound(_ id: String) -> FirebaseFailure {
    FirebaseFailure(.tenantNotFound, "no tenant has the id \(FirebaseFailure.printable(id))")
  }

  // MARK: - Private

  /// Stores `tenant` as new, within ``limit``.
  private func add(_ tenant: Tenant, refusal: String) async throws {
    let value = try SortedJSON.data(tenant)
    let limit = limit
    let added = try await project.settings {
      try $0.add(Self.kind, key: tenant.tenantId ?? "", value: value, limit: limit)
    }
    if added == .full {
      throw FirebaseFailure(.quotaExceeded, "this project already has \(limit) tenants; \(refusal)")
    }
  }

  /// The backend of tenant `id`, opened once per process.
  private func opened(_ id: String) throws -> EmbeddedBackend {
    try opened.withLock { opened in
      if let known = opened[id] { return known }
      let made = try project.tenant(id)
      opened[id] = made
      return made
    }
  }

  /// Tenant `id` of `project` with the settings `body` sets and production's defaults (all off)
  /// for the others.
  private static func made(id: String, in project: EmbeddedBackend, from body: Tenant) -> Tenant {
    var tenant = Tenant()
    tenant.name = "projects/\(project.configuration.projectID)/tenants/\(id)"
    tenant.tenantId = id
    tenant.displayName = body.displayName
    tenant.allowPasswordSignup = body.allowPasswordSignup ?? false
    tenant.enableEmailLinkSignin = body.enableEmailLinkSignin ?? false
    tenant.enableAnonymousUser = body.enableAnonymousUser ?? false
    tenant.disableAuth = body.disableAuth ?? false
    var mfa = body.mfaConfig ?? Tenant.MultiFactorAuthConfig()
    mfa.state = mfa.state ?? "DISABLED"
    mfa.enabledProviders = mfa.enabledProviders ?? []
    tenant.mfaConfig = mfa
    tenant.testPhoneNumbers = body.testPhoneNumbers
    tenant.recaptchaConfig = body.recaptchaConfig
    return tenant
  }

}
