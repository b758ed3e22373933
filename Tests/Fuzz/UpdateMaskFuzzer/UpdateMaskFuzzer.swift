// libFuzzer target: an administrator's `updateMask` and body for a provider configuration and a
// tenant, the finding N11 was about (a deep mask crashed the server, or left config changes
// blocked until a restart). Whatever the mask: parsing it either refuses with Firebase's error or
// gives at most `FieldMask.maximumPaths` paths no deeper than `FieldMask.maximumDepth`; the PATCH
// answers 200, 400 or 404 and never traps; and a well-formed change right after still succeeds.
//
// The input is lines: the mask, then the JSON body.
import Dispatch
import Foundation
import SignInConcurrency
import SignInEmulator
import SignInKit
import SignInKitEmbedded
import SignInWire

let routes = FirebaseEmulatorRoutes(
  backend: try! EmbeddedBackend(
    directory: nil, configuration: EmbeddedBackend.Configuration(scrypt: ScryptParameters(n: 16, r: 8, p: 1))))
let base = "/identitytoolkit.googleapis.com/v2/projects/\(routes.backend.configuration.projectID)"

/// The reply to an administrator's call, waited for.
func call(_ method: String, _ target: String, _ body: String) -> FirebaseEmulatorRoutes.Reply {
  let headers = ["host": "127.0.0.1:9099", "content-type": "application/json", "authorization": "Bearer owner"]
  let done = DispatchSemaphore(value: 0)
  let result = Locked<FirebaseEmulatorRoutes.Reply?>(nil)
  Task {
    let reply = await routes.reply(method: method, target: target, headers: headers, body: Data(body.utf8))
    result.withLock { $0 = reply }
    done.signal()
  }
  done.wait()
  return result.withLock { $0! }
}

/// The tenant made to fuzz, beside the OIDC configuration `oidc.fuzz`.
let tenantID: String = {
  let made = [
    call("POST", base + "/oauthIdpConfigs?oauthIdpConfigId=oidc.fuzz", #"{"clientId":"c","issuer":"https://i.test"}"#),
    call("POST", base + "/tenants", #"{"displayName":"fuzz"}"#),
  ]
  precondition(made.allSatisfy { $0.status == 200 }, "could not make the config and tenant to fuzz")
  return ((try? JSONSerialization.jsonObject(with: made[1].body)) as? [String: Any])?["tenantId"] as? String ?? ""
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUpdateMask(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
  let mask = parts.first ?? ""
  let body = parts.count > 1 ? parts[1] : "{}"

  if let parsed = try? FieldMask(mask, of: OAuthIdpConfig.self) {
    precondition(parsed.paths.count <= FieldMask.maximumPaths, "\(parsed.paths.count) paths kept")
    precondition(
      parsed.paths.allSatisfy { !$0.isEmpty && $0.count <= FieldMask.maximumDepth && !$0.contains("") },
      "an empty or too deep path kept")
  }

  let query = "updateMask=" + FormEncoding.escape(mask)
  for target in [base + "/oauthIdpConfigs/oidc.fuzz?" + query, base + "/tenants/\(tenantID)?" + query] {
    let reply = call("PATCH", target, body)
    precondition([200, 400, 404, 413].contains(reply.status), "status \(reply.status) for the mask \(mask.prefix(80))")
    precondition((try? JSONSerialization.jsonObject(with: reply.body)) is [String: Any], "a reply that is not JSON")
  }
  // Nothing the fuzzed change did blocks the next well-formed one.
  let after = call("PATCH", base + "/oauthIdpConfigs/oidc.fuzz?updateMask=displayName", #"{"displayName":"after"}"#)
  precondition(after.status == 200, "a later change was refused: \(after.status)")
  let tenant = call("PATCH", base + "/tenants/\(tenantID)?updateMask=displayName", #"{"displayName":"after"}"#)
  precondition(tenant.status == 200, "a later tenant change was refused: \(tenant.status)")
  return 0
}
