import Foundation
import SignInFoundation
import SignInKit
import SignInKitEmbedded

/// The v2 admin API's provider configurations (``EmulatorProviderConfigs``):
/// `…/oauthIdpConfigs` and `…/inboundSamlConfigs` of a project or tenant. `POST` with
/// `?oauthIdpConfigId=oidc.NAME` (or `inboundSamlConfigId=saml.NAME`) creates, `GET` lists a page
/// (`pageSize`, default 100, and `pageToken`), and `…/ID` is read (`GET`), changed (`PATCH` with
/// an `updateMask`) and deleted (`DELETE`).
///
/// ``FirebaseEmulatorRoutes`` checks the owner credential before it hands a call here.
///
/// - Concurrency: `Sendable` value.
struct FirebaseEmulatorProviderConfigAdmin: Sendable {
  typealias Reply = FirebaseEmulatorRoutes.Reply
  typealias Routes = FirebaseEmulatorRoutes

  let configs: EmulatorProviderConfigs

  /// Answers `method` on `path`: the collection's name, then nothing or `/ID`.
  func reply(method: String, kind: EmulatorProviderConfigs.Kind, path: String, query: [String: String], body: Data)
    -> Reply
  {
    do {
      let fields = body.isEmpty ? [:] : (Routes.object(body) ?? [:])
      if path.isEmpty || path == "/" {
        switch method {
        case "POST": return Routes.json(try configs.create(kind, id: query[kind.idParameter], body: fields))
        case "GET":
          let size = Int(try RequestNumber.integer(query: query["pageSize"], field: "pageSize", in: 1...100) ?? 100)
          let (page, next) = configs.list(kind, pageSize: size, after: query["pageToken"])
          var object: [String: JSONValue] = [kind.rawValue: .array(page.map(JSONValue.object))]
          if let next { object["nextPageToken"] = .string(next) }
          return Routes.json(object)
        default: return Routes.failure(405, "METHOD_NOT_ALLOWED")
        }
      }
      let id = String(path.dropFirst())
      switch method {
      case "GET": return Routes.json(try configs.get(kind, id: id))
      case "PATCH":
        return Routes.json(try configs.update(kind, id: id, body: fields, mask: query["updateMask"]))
      case "DELETE":
        try configs.delete(kind, id: id)
        return Routes.json([:])
      default: return Routes.failure(405, "METHOD_NOT_ALLOWED")
      }
    } catch let error as AuthError where error.serverMessage?.hasPrefix("CONFIGURATION_NOT_FOUND") == true {
      return Routes.failure(404, error.serverMessage ?? "CONFIGURATION_NOT_FOUND")
    } catch {
      return Routes.failure(AuthError.wrapping(error))
    }
  }
}
