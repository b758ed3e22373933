import Foundation
import SignInFoundation
import SignInKit
import SignInKitEmbedded

/// The Identity Platform tenant API the Admin SDKs' tenant management calls in emulator mode:
/// `/identitytoolkit.googleapis.com/v2/projects/P/tenants` (`GET` lists a page, `POST` creates)
/// and `…/tenants/T` (`GET`, `PATCH` with an `updateMask`, `DELETE`, which deletes the tenant's
/// accounts too). Each tenant's users are reached through `…/v1/projects/P/tenants/T/accounts…`
/// (``FirebaseEmulatorAdmin`` on the tenant's backend) and client calls that send `tenantId`.
///
/// ``FirebaseEmulatorRoutes`` checks the owner credential before it hands a call here.
///
/// - Concurrency: `Sendable` value.
struct FirebaseEmulatorTenantAdmin: Sendable {
  typealias Reply = FirebaseEmulatorRoutes.Reply
  typealias Routes = FirebaseEmulatorRoutes

  let tenants: EmulatorTenants

  /// Answers `method` on `path`, what follows `projects/P/tenants` (empty, or `/T`).
  func reply(method: String, path: String, query: [String: String], body: Data) async -> Reply {
    do {
      let fields = body.isEmpty ? [:] : (Routes.object(body) ?? [:])
      if path.isEmpty || path == "/" {
        switch method {
        case "POST": return try Self.reply(tenants.create(fields))
        case "GET": return try list(query)
        default: return Routes.failure(405, "METHOD_NOT_ALLOWED")
        }
      }
      let id = String(path.dropFirst())
      switch method {
      case "GET":
        guard let tenant = tenants.tenant(id) else { throw EmulatorTenants.notFound(id) }
        return try Self.reply(tenant)
      case "PATCH":
        return try Self.reply(tenants.update(id, body: fields, mask: query["updateMask"]))
      case "DELETE":
        try await tenants.delete(id)
        return Routes.json([:])
      default:
        return Routes.failure(405, "METHOD_NOT_ALLOWED")
      }
    } catch {
      return Routes.failure(AuthError.wrapping(error))
    }
  }

  /// A page of tenants in id order after `pageToken` (a tenant id), `pageSize` (default 20, at
  /// most 1000) at a time.
  private func list(_ query: [String: String]) throws -> Reply {
    let size = Int(try RequestNumber.integer(query: query["pageSize"], field: "pageSize", in: 1...1000) ?? 20)
    let after = query["pageToken"] ?? ""
    let remaining = tenants.all.filter { $0.tenantId > after }
    let page = Array(remaining.prefix(size))
    var object: [String: JSONValue] = ["tenants": .array(try page.map(Self.json))]
    if remaining.count > page.count, let last = page.last { object["nextPageToken"] = .string(last.tenantId) }
    return Routes.json(object)
  }

  private static func json(_ tenant: EmulatorTenant) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(tenant))
  }

  private static func reply(_ tenant: EmulatorTenant) throws -> Reply {
    guard case .object(let object) = try json(tenant) else { return Routes.json([:]) }
    return Routes.json(object)
  }
}
