// libFuzzer target: an administrator's import (`accounts:batchCreate`, the Admin SDKs'
// `import_users`), its hash parameters and records, the finding N2 was about (hashes that cost
// hours or gigabytes to check were accepted). Whatever the upload: the reply is 200 or 400, never
// a trap; every user it says it stored can be looked up; and a wrong password for each stored
// user is refused, within libFuzzer's per-input timeout, so no accepted hash costs more than
// its ceiling.
//
// The input is the request body (JSON).
import Dispatch
import Foundation
import SignInConcurrency
import SignInEmulator
import SignInKit
import SignInKitEmbedded

let routes = FirebaseEmulatorRoutes(
  backend: try! EmbeddedBackend(
    directory: nil, configuration: EmbeddedBackend.Configuration(scrypt: ScryptParameters(n: 16, r: 8, p: 1))))
let project = routes.backend.configuration.projectID

/// The reply to a call, waited for.
func call(_ target: String, _ body: Data, admin: Bool) -> FirebaseEmulatorRoutes.Reply {
  var headers = ["host": "127.0.0.1:9099", "content-type": "application/json"]
  if admin { headers["authorization"] = "Bearer owner" }
  let done = DispatchSemaphore(value: 0)
  let result = Locked<FirebaseEmulatorRoutes.Reply?>(nil)
  Task {
    let reply = await routes.reply(method: "POST", target: target, headers: headers, body: body)
    result.withLock { $0 = reply }
    done.signal()
  }
  done.wait()
  return result.withLock { $0! }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportRecords(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let body = Data(UnsafeBufferPointer(start: data, count: size))
  let reply = call("/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:batchCreate", body, admin: true)
  precondition([200, 400, 413].contains(reply.status), "status \(reply.status)")
  guard reply.status == 200,
    let sent = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
    let users = sent["users"] as? [[String: Any]],
    let answer = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]
  else { return 0 }
  let refused = Set(((answer["error"] as? [[String: Any]]) ?? []).compactMap { $0["index"] as? Int })
  for (index, user) in users.enumerated() where !refused.contains(index) {
    guard let uid = user["localId"] as? String else { continue }
    let lookup = call(
      "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:lookup",
      try! JSONSerialization.data(withJSONObject: ["localId": [uid]]), admin: true)
    precondition(lookup.status == 200, "a stored user cannot be looked up: \(lookup.status)")
    if let email = user["email"] as? String {
      let signIn = call(
        "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k",
        try! JSONSerialization.data(withJSONObject: ["email": email, "password": "not the password at all"]),
        admin: false)
      precondition([200, 400, 429, 503].contains(signIn.status), "sign-in answered \(signIn.status)")
    }
  }
  // Each input starts from an empty project, so uids and emails can repeat across inputs.
  _ = call(
    "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:batchDelete",
    try! JSONSerialization.data(withJSONObject: [
      "localIds": users.compactMap { $0["localId"] as? String }, "force": true,
    ]),
    admin: true)
  return 0
}
