// libFuzzer target: what `signin serve` decides from a request's headers before any work (the
// Host and Origin checks a web page meets), the one reader of a request's numbers, and the whole
// route table: any target and body reach the typed decoding of every endpoint (field masks,
// imports, enums, int64s). Whatever the bytes, nothing traps; a request is served only for a
// loopback or public host and an allowed origin; a number comes back only inside its range; every
// reply is a known status with Firebase's JSON (or the action page's text, or a page with its
// security policy; the hosted handler's form may redirect), never a 500.
//
// The input is lines: method, Host, Origin, a JSON value for the number reader, a request target
// (an administrator's call when it starts with `!`), then the body.
import Dispatch
import Foundation
import SignInConcurrency
import SignInEmulator
import SignInFoundation
import SignInKit
import SignInKitEmbedded

let routes = FirebaseEmulatorRoutes(
  backend: try! EmbeddedBackend(
    directory: nil, configuration: EmbeddedBackend.Configuration(scrypt: ScryptParameters(n: 16, r: 8, p: 1))))

/// The reply to `target` and `body` through the route table, waited for.
func reply(method: String, target: String, admin: Bool, body: Data) -> FirebaseEmulatorRoutes.Reply {
  var headers = ["host": "127.0.0.1:9099", "content-type": "application/json"]
  if admin { headers["authorization"] = "Bearer owner" }
  let done = DispatchSemaphore(value: 0)
  let result = Locked<FirebaseEmulatorRoutes.Reply?>(nil)
  Task {
    let reply = await routes.reply(method: method, target: target, headers: headers, body: body)
    result.withLock { $0 = reply }
    done.signal()
  }
  done.wait()
  return result.withLock { $0! }
}

let policy = try! EmulatorRequestPolicy(
  port: 9099, publicURL: URL(string: "https://auth.example.test"), allowedOrigins: ["https://app.example.test"])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEmulatorRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let lines = text.split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
  let method = lines.first ?? ""
  var headers: [String: String] = [:]
  if lines.count > 1, !lines[1].isEmpty { headers["host"] = lines[1] }
  if lines.count > 2, !lines[2].isEmpty { headers["origin"] = lines[2] }

  switch policy.decide(method: method, headers: headers) {
  case .refuse(let status, let message):
    precondition([403, 421].contains(status), "unexpected status \(status)")
    precondition(!message.contains("\r") && !message.contains("\n"), "a header's line break reached the message")
  case .preflight(let cors):
    precondition(method == "OPTIONS" && headers["origin"] != nil, "a preflight for something else")
    precondition(cors.contains { $0.name == "Access-Control-Allow-Origin" && $0.value == headers["origin"] })
  case .serve(let cors):
    if let host = headers["host"] {
      let name = EmulatorRequestPolicy.hostName(of: host)
      precondition(
        name.map { EmulatorRequestPolicy.isLoopback($0) || $0 == "auth.example.test" } == true,
        "served a foreign host \(host)")
    }
    if let origin = headers["origin"] {
      let normalized = EmulatorRequestPolicy.normalizedOrigin(origin)
      precondition(normalized != nil, "served a malformed origin \(origin)")
      precondition(cors.first?.value == origin, "an allowed origin without its CORS header")
    } else {
      precondition(cors.isEmpty, "CORS headers without an origin")
    }
  }

  if lines.count > 3, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(lines[3].utf8)) {
    if let number = try? RequestNumber.integer(value, field: "validSince", in: RequestNumber.epochSeconds) {
      precondition(RequestNumber.epochSeconds.contains(number), "a number outside its range was read")
    }
    if case .number(let double) = value { _ = RequestNumber.whole(double) }
  }
  _ = RequestNumber.whole(Double(bitPattern: UInt64(size) &* 0x9E37_79B9_7F4A_7C15))

  if lines.count > 4, ["GET", "POST", "PATCH", "DELETE"].contains(method) {
    let admin = lines[4].hasPrefix("!")
    let target = admin ? String(lines[4].dropFirst()) : lines[4]
    let answer = reply(method: method, target: target, admin: admin, body: Data((lines.count > 5 ? lines[5] : "").utf8))
    // 303 only from the hosted handler's form, which answers the app with a redirect.
    let redirects = target.hasPrefix("/emulator/auth/handler/choose")
    precondition(
      [200, 400, 401, 403, 404, 405, 413, 501, 503].contains(answer.status) || redirects && answer.status == 303,
      "status \(answer.status) for \(target)")
    if answer.contentType.hasPrefix("text/html") {
      precondition(answer.headers.contains { $0.name == "Content-Security-Policy" }, "a page without its policy")
    }
    if answer.contentType == "application/json" {
      precondition((try? JSONSerialization.jsonObject(with: answer.body)) is [String: Any], "a reply that is not JSON")
    }
  }
  return 0
}
