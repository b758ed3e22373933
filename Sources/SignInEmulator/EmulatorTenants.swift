import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded

/// One Identity Platform tenant as the v2 admin API describes it (`projects/P/tenants/T`).
///
/// - Concurrency: `Sendable` value.
struct EmulatorTenant: Codable, Sendable, Equatable {
  var name: String
  var tenantId: String
  var displayName: String?
  var allowPasswordSignup: Bool
  var enableEmailLinkSignin: Bool
  var enableAnonymousUser: Bool
  var disableAuth: Bool
  var mfaConfig: JSONValue

  /// A tenant with the fields of `body` that are set, and production's defaults (all off) for
  /// the others, as the emulator makes one.
  init(project: String, tenantID: String, body: [String: JSONValue]) {
    name = "projects/\(project)/tenants/\(tenantID)"
    tenantId = tenantID
    displayName = body["displayName"]?.string
    allowPasswordSignup = body["allowPasswordSignup"]?.bool ?? false
    enableEmailLinkSignin = body["enableEmailLinkSignin"]?.bool ?? false
    enableAnonymousUser = body["enableAnonymousUser"]?.bool ?? false
    disableAuth = body["disableAuth"]?.bool ?? false
    var mfa = body["mfaConfig"]?.object ?? [:]
    mfa["state"] = mfa["state"] ?? .string("DISABLED")
    mfa["enabledProviders"] = mfa["enabledProviders"] ?? .array([])
    mfaConfig = .object(mfa)
  }

  /// The refusal of client call `name` with `body` under this tenant's settings, as the
  /// emulator answers it (`PROJECT_DISABLED`, `OPERATION_NOT_ALLOWED`, `ADMIN_ONLY_OPERATION`,
  /// `PASSWORD_LOGIN_DISABLED`), or `nil` when the settings allow it.
  func refusal(of name: String, body: [String: JSONValue]) -> String? {
    if disableAuth { return "PROJECT_DISABLED" }
    switch name {
    case "signUp":
      let withPassword = body["email"]?.string != nil || body["password"]?.string != nil
      if withPassword, !allowPasswordSignup { return "OPERATION_NOT_ALLOWED" }
      if !withPassword, body["idToken"] == nil, !enableAnonymousUser { return "ADMIN_ONLY_OPERATION" }
    case "signInWithPassword", "resetPassword":
      if !allowPasswordSignup { return "PASSWORD_LOGIN_DISABLED" }
    case "signInWithEmailLink":
      if !enableEmailLinkSignin { return "OPERATION_NOT_ALLOWED" }
    case "sendOobCode":
      if body["requestType"]?.string == "EMAIL_SIGNIN", !enableEmailLinkSignin { return "OPERATION_NOT_ALLOWED" }
    default:
      break
    }
    return nil
  }

  /// This tenant with the fields `body` names changed: those in `mask` (comma-separated), or
  /// every field when there is no mask, as the emulator's update does.
  func updated(with body: [String: JSONValue], mask: String?) -> EmulatorTenant {
    guard let mask, !mask.isEmpty else {
      var replaced = EmulatorTenant(project: "", tenantID: tenantId, body: body)
      replaced.name = name
      return replaced
    }
    var tenant = self
    for field in mask.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      switch field {
      case "displayName": tenant.displayName = body["displayName"]?.string
      case "allowPasswordSignup": tenant.allowPasswordSignup = body[field]?.bool ?? false
      case "enableEmailLinkSignin": tenant.enableEmailLinkSignin = body[field]?.bool ?? false
      case "enableAnonymousUser": tenant.enableAnonymousUser = body[field]?.bool ?? false
      case "disableAuth": tenant.disableAuth = body[field]?.bool ?? false
      case "mfaConfig": tenant.mfaConfig = body[field] ?? tenant.mfaConfig
      default: continue
      }
    }
    return tenant
  }
}

/// The tenants of one project in `signin serve`: their settings and, for each, accounts of its
/// own (a backend beside the project's, signing with its key, whose tokens name the tenant).
/// Kept in `tenants.json` and `tenants/T/` in the project's folder when it has one.
///
/// A tenant a call names before anyone created it is made then, with every sign-in method on,
/// as the emulator does for convenience; production would refuse the call.
///
/// - Concurrency: `Sendable`; a lock guards the table (and the file's writes).
final class EmulatorTenants: Sendable {
  let project: EmbeddedBackend
  private let table: Locked<[String: (tenant: EmulatorTenant, backend: EmbeddedBackend)]>
  /// How many tenants one project holds before creating more is refused.
  static let limit = 100

  init(project: EmbeddedBackend) {
    self.project = project
    var loaded: [String: (tenant: EmulatorTenant, backend: EmbeddedBackend)] = [:]
    if let file = Self.file(of: project),
      let data = try? FileContents.read(file, what: "The tenants file"),
      let tenants = try? JSONDecoder().decode([EmulatorTenant].self, from: data)
    {
      for tenant in tenants {
        if let backend = try? Self.backend(of: project, tenantID: tenant.tenantId) {
          loaded[tenant.tenantId] = (tenant, backend)
        }
      }
    }
    table = Locked(loaded)
  }

  /// Every tenant in id order.
  var all: [EmulatorTenant] { table.withLock { $0.values.map(\.tenant).sorted { $0.tenantId < $1.tenantId } } }

  func tenant(_ id: String) -> EmulatorTenant? { table.withLock { $0[id]?.tenant } }

  /// A new tenant with a random id and the settings in `body`.
  func create(_ body: [String: JSONValue]) throws -> EmulatorTenant {
    try change { table in
      guard table.count < Self.limit else {
        throw AuthError(
          .tooManyRequests, "too many tenants",
          serverMessage: "QUOTA_EXCEEDED : this project already has \(Self.limit) tenants; delete one first")
      }
      let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
      let id = String(try Crypto.randomBytes(20).map { alphabet[Int($0) % alphabet.count] })
      return try insert(
        EmulatorTenant(project: project.configuration.projectID, tenantID: id, body: body), into: &table)
    }
  }

  /// The backend of tenant `id`, making the tenant (every method on) when it is new.
  func backend(for id: String) throws -> EmbeddedBackend {
    guard EmulatorProjects.isProjectID(id) else {
      throw AuthError(
        .invalidResponse, "not a tenant id",
        serverMessage: "INVALID_TENANT_ID : use lowercase letters, digits and hyphens for a tenant id")
    }
    if let known = table.withLock({ $0[id]?.backend }) { return known }
    return try change { table in
      if let known = table[id]?.backend { return known }
      var tenant = EmulatorTenant(project: project.configuration.projectID, tenantID: id, body: [:])
      tenant.allowPasswordSignup = true
      tenant.enableEmailLinkSignin = true
      tenant.enableAnonymousUser = true
      _ = try insert(tenant, into: &table)
      return table[id]!.backend
    }
  }

  func update(_ id: String, body: [String: JSONValue], mask: String?) throws -> EmulatorTenant {
    try change { table in
      guard let entry = table[id] else { throw Self.notFound(id) }
      let tenant = entry.tenant.updated(with: body, mask: mask)
      table[id] = (tenant, entry.backend)
      try save(table)
      return tenant
    }
  }

  /// Forgets tenant `id` and deletes its accounts.
  func delete(_ id: String) async throws {
    let backend = try change { table in
      guard let entry = table.removeValue(forKey: id) else { throw Self.notFound(id) }
      try save(table)
      return entry.backend
    }
    try await backend.deleteAllAccounts()
    await backend.close()
  }

  /// Every tenant backend, for a refresh token the project does not know.
  var backends: [EmbeddedBackend] { table.withLock { $0.values.map(\.backend) } }

  static func notFound(_ id: String) -> AuthError {
    AuthError(.userNotFound, "no tenant \(id)", serverMessage: "TENANT_NOT_FOUND : no tenant has the id \(id)")
  }

  // MARK: - Private

  private func change<T>(_ body: (inout [String: (tenant: EmulatorTenant, backend: EmbeddedBackend)]) throws -> T)
    throws -> T
  {
    try table.withLock { table in try body(&table) }
  }

  private func insert(
    _ tenant: EmulatorTenant, into table: inout [String: (tenant: EmulatorTenant, backend: EmbeddedBackend)]
  ) throws -> EmulatorTenant {
    table[tenant.tenantId] = (tenant, try Self.backend(of: project, tenantID: tenant.tenantId))
    try save(table)
    return tenant
  }

  private func save(_ table: [String: (tenant: EmulatorTenant, backend: EmbeddedBackend)]) throws {
    guard let file = Self.file(of: project) else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let data = try encoder.encode(table.values.map(\.tenant).sorted { $0.tenantId < $1.tenantId })
    try AuthError.storage { () throws(FileError) in try AtomicFile.write(data, to: file) }
  }

  private static func file(of project: EmbeddedBackend) -> URL? {
    project.directory?.appendingPathComponent("tenants.json")
  }

  private static func backend(of project: EmbeddedBackend, tenantID: String) throws -> EmbeddedBackend {
    try project.sibling(
      projectID: project.configuration.projectID, tenantID: tenantID,
      directory: project.directory?.appendingPathComponent("tenants", isDirectory: true)
        .appendingPathComponent(tenantID, isDirectory: true))
  }
}
