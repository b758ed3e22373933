import Foundation
import SignInKit
import SignInWire

/// The Identity Platform tenant API the Admin SDKs' tenant management calls: create, list a
/// page, get, update (`updateMask`) and delete (which deletes the tenant's accounts too). Each
/// tenant's users are reached through `…/v1/projects/P/tenants/T/accounts…` and client calls that
/// send `tenantId`.
enum TenantEndpoints {
  static func create(_ body: Tenant, _ context: ServiceContext) async throws -> Tenant {
    try await context.tenants.create(body)
  }

  /// A page of tenants in id order after `pageToken` (a tenant id), `pageSize` (default 20, at
  /// most 1000) at a time.
  static func list(_ body: PageQuery, _ context: ServiceContext) async throws -> TenantList {
    let size = Int(try RequestNumber.integer(query: body.pageSize, field: "pageSize", in: 1...1000) ?? 20)
    let remaining = try await context.tenants.all().filter { ($0.tenantId ?? "") > (body.pageToken ?? "") }
    let page = Array(remaining.prefix(size))
    return TenantList(tenants: page, nextPageToken: remaining.count > page.count ? page.last?.tenantId : nil)
  }

  static func get(_ body: NoBody, _ context: ServiceContext) async throws -> Tenant {
    let id = try context.value("tenant")
    guard let tenant = try await context.tenants.tenant(id) else { throw ServiceTenants.notFound(id) }
    return tenant
  }

  static func update(_ body: ResourceUpdate<Tenant>, _ context: ServiceContext) async throws -> Tenant {
    let mask = try body.updateMask.flatMap { $0.isEmpty ? nil : $0 }.map { try FieldMask($0, of: Tenant.self) }
    return try await context.tenants.update(try context.value("tenant"), with: body.resource, mask: mask)
  }

  static func delete(_ body: NoBody, _ context: ServiceContext) async throws -> NoBody {
    try await context.tenants.delete(try context.value("tenant"))
    return NoBody()
  }
}
