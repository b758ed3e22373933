import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The tenants of one project in `signin serve`: their settings (the v2 API's ``Tenant``) and,
/// for each, accounts of its own (a backend beside the project's, signing with its key, whose
/// tokens name the tenant). Kept in `tenants.json` and `tenants/T/` in the project's folder when
/// it has one.
///
/// A tenant a client call names before anyone created it is made then, with every sign-in
/// method on, as the emulator does for convenience; production would refuse the call. That holds
/// for a tenant deleted earlier too, on purpose: the Firebase emulator makes it again the same way
/// (its `getTenantProject`), and test suites that name a fixed tenant id rely on it. A `GET`
/// makes none, and no call makes more than ``limit``.
///
/// - Concurrency: `Sendable`; a lock guards the table (and the file's writes).
final class EmulatorTenants: Sendable {
  private typealias Table = [String: (tenant: Tenant, backend: EmbeddedBackend)]

  let project: EmbeddedBackend
  private let table: Locked<Table>
  /// How many tenants one project holds before creating more is refused.
  static let limit = 100
  /// This table's limit: ``limit`` unless the server was given another.
  let limit: Int

  init(project: EmbeddedBackend, limit: Int = EmulatorTenants.limit) {
    self.project = project
    self.limit = limit
    var loaded: Table = [:]
    if let file = Self.file(of: project),
      let data = try? FileContents.read(file, what: "The tenants file"),
      let tenants = try? JSONDecoder().decode([Tenant].self, from: data)
    {
      for tenant in tenants {
        if let id = tenant.tenantId, let backend = try? Self.backend(of: project, tenantID: id) {
          loaded[id] = (tenant, backend)
        }
      }
    }
    table = Locked(loaded)
  }

  /// Every tenant in id order.
  var all: [Tenant] { table.withLock { $0.values.map(\.tenant).sorted { ($0.tenantId ?? "") < ($1.tenantId ?? "") } } }

  func tenant(_ id: String) -> Tenant? { table.withLock { $0[id]?.tenant } }

  /// A new tenant with a random id and the settings in `body` (production's defaults, all off,
  /// for the others).
  func create(_ body: Tenant) throws -> Tenant {
    try table.withLock { table in
      guard table.count < limit else {
        throw FirebaseFailure(.quotaExceeded, "this project already has \(limit) tenants; delete one first")
      }
      let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
      let id = String(try Crypto.randomBytes(20).map { alphabet[Int($0) % alphabet.count] })
      return try insert(Self.made(id: id, in: project, from: body), into: &table)
    }
  }

  /// The backend of tenant `id`, making the tenant (every method on) when it is new and
  /// `creating`; when not, a new tenant's that is not kept (a `GET` makes nothing).
  ///
  /// - Throws: `INVALID_TENANT_ID`; `QUOTA_EXCEEDED` when making it would pass ``limit``.
  func backend(for id: String, creating: Bool = true) throws -> EmbeddedBackend {
    guard EmulatorProjects.isProjectID(id) else {
      throw FirebaseFailure(.invalidTenantId, "use lowercase letters, digits and hyphens for a tenant id")
    }
    if let known = table.withLock({ $0[id]?.backend }) { return known }
    guard creating else {
      return try project.sibling(projectID: project.configuration.projectID, tenantID: id, directory: nil)
    }
    return try table.withLock { table in
      if let known = table[id]?.backend { return known }
      // The cap holds however a tenant is made: by the admin API or by a client naming it.
      guard table.count < limit else {
        throw FirebaseFailure(
          .quotaExceeded,
          "this project already has \(limit) tenants; delete one first, or name a tenant it has")
      }
      var open = Tenant()
      open.allowPasswordSignup = true
      open.enableEmailLinkSignin = true
      open.enableAnonymousUser = true
      _ = try insert(Self.made(id: id, in: project, from: open), into: &table)
      return table[id]!.backend
    }
  }

  /// Tenant `id` changed by `change`: the fields `mask` names, or, with no mask, every field
  /// replaced (production's defaults for those `change` leaves out), as the emulator's update does.
  func update(_ id: String, with change: Tenant, mask: FieldMask?) throws -> Tenant {
    try table.withLock { table in
      guard let entry = table[id] else { throw Self.notFound(id) }
      var tenant: Tenant
      if let mask {
        tenant = try entry.tenant.updated(with: change, mask: mask)
      } else {
        tenant = Self.made(id: id, in: project, from: change)
      }
      tenant.name = entry.tenant.name
      tenant.tenantId = id
      table[id] = (tenant, entry.backend)
      try save(table)
      return tenant
    }
  }

  /// Forgets tenant `id` and deletes its accounts.
  func delete(_ id: String) async throws {
    let backend = try table.withLock { table in
      guard let entry = table.removeValue(forKey: id) else { throw Self.notFound(id) }
      try save(table)
      return entry.backend
    }
    try await backend.deleteAllAccounts()
    await backend.close()
  }

  /// The backend of tenant `id` if this table keeps it.
  func kept(_ id: String) -> EmbeddedBackend? { table.withLock { $0[id]?.backend } }

  /// Every tenant backend, for a refresh token the project does not know.
  var backends: [EmbeddedBackend] { table.withLock { $0.values.map(\.backend) } }

  static func notFound(_ id: String) -> FirebaseFailure {
    FirebaseFailure(.tenantNotFound, "no tenant has the id \(EmulatorRequestPolicy.printable(id))")
  }

  // MARK: - Private

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
    return tenant
  }

  private func insert(_ tenant: Tenant, into table: inout Table) throws -> Tenant {
    let id = tenant.tenantId ?? ""
    table[id] = (tenant, try Self.backend(of: project, tenantID: id))
    try save(table)
    return tenant
  }

  private func save(_ table: Table) throws {
    guard let file = Self.file(of: project) else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let data = try encoder.encode(table.values.map(\.tenant).sorted { ($0.tenantId ?? "") < ($1.tenantId ?? "") })
    try AuthError.storage { () throws(FileError) in try AtomicFile.write(data, to: file) }
  }

  private static func file(of project: EmbeddedBackend) -> URL? {
    project.directory?.appendingPathComponent("tenants.json")
  }

  private static func backend(of project: EmbeddedBackend, tenantID: String) throws -> EmbeddedBackend {
    try project.tenant(tenantID)
  }
}
