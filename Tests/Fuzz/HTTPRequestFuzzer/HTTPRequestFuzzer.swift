// libFuzzer target: the request parser every loopback server shares faces every process on the
// machine. Whatever bytes arrive, in whatever pieces, it must answer with a request, a rejection
// or "needs more", never trap, and never hold a request over its limits. The first byte picks
// where the input is cut in two, so bytes arriving in pieces are exercised too; what follows a
// request must come back as its leftover bytes, for the next request on a kept-alive connection.
import SignInHTTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let first = bytes.first else { return 0 }
  let input = bytes.dropFirst()
  let cut = input.startIndex + Int(first) % (input.count + 1)
  let limits = HTTPRequestParser.Limits(headBytes: 512, headerCount: 8, bodyBytes: 256)
  var parser = HTTPRequestParser(limits: limits)
  var completedEarly = false
  if case .request = parser.consume(input[..<cut]) { completedEarly = true }
  switch parser.consume(input[cut...]) {
  case .request(let request):
    precondition(request.body.count <= limits.bodyBytes, "a body over the limit was accepted")
    // The bytes after the request (the next one on a kept-alive connection) are exactly the end
    // of what had arrived when it completed.
    let arrived = completedEarly ? input[..<cut] : input[...]
    precondition(
      parser.leftover.count < arrived.count && arrived.suffix(parser.leftover.count).elementsEqual(parser.leftover),
      "the leftover bytes are not the end of the input")
    precondition(request.headers.count <= limits.headerCount, "more headers than the limit were accepted")
    _ = (request.path, request.query)
  case .rejected(let rejection):
    precondition([400, 413, 501].contains(rejection.status), "unexpected status \(rejection.status)")
  case .needsMore:
    precondition(input.count <= limits.headBytes + 4 + limits.bodyBytes, "over the limits but still reading")
  }
  return 0
}
