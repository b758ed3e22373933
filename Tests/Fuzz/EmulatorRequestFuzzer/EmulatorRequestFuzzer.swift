// libFuzzer target: what `signin serve` decides from a request's headers before any work (the
// Host and Origin checks a web page meets), and the one reader of a request's numbers. Whatever
// the bytes, nothing traps; a request is served only for a loopback or public host and an
// allowed origin; a number comes back only inside its range.
//
// The input is lines: method, Host, Origin, then a JSON value for the number reader.
import Foundation
import SignInEmulator
import SignInFoundation
import SignInKitEmbedded

let policy = try! EmulatorRequestPolicy(
  port: 9099, publicURL: URL(string: "https://auth.example.test"), allowedOrigins: ["https://app.example.test"])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEmulatorRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
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
  return 0
}
