import Foundation
import SignInHTTP
import Testing

/// The request parser every loopback server shares: whatever a local process sends, it answers
/// with a request or a 4xx/5xx rejection, never a trap, and never buffers past its limits.
@Suite struct HTTPRequestParserTests {
  func parse(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Outcome {
    HTTPRequestParser.parse(Array(text.utf8), limits: limits)
  }

  func rejectionStatus(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> Int? {
    if case .rejected(let rejection) = parse(text, limits: limits) { return rejection.status }
    return nil
  }

  @Test func readsARequestWithABody() throws {
    let outcome = parse("POST /token?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
    guard case .request(let request) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(request.method == "POST")
    #expect(request.target == "/token?x=1")
    #expect(request.path == "/token")
    #expect(request.headers["host"] == "a")
    #expect(request.body == Data("hello".utf8))
  }

  @Test func waitsForTheRestOfAHeadAndOfABody() {
    var parser = HTTPRequestParser()
    guard case .needsMore = parser.consume(Array("GET /callback HT".utf8)) else {
      Issue.record("head")
      return
    }
    guard case .needsMore = parser.consume(Array("TP/1.1\r\nContent-Length: 3\r\n\r\nab".utf8)) else {
      Issue.record("body")
      return
    }
    guard case .request(let request) = parser.consume(Array("c".utf8)) else {
      Issue.record("done")
      return
    }
    #expect(request.body == Data("abc".utf8))
  }

  @Test(arguments: [
    "-5", "+5", "5x", "", " ", "0x10", "1e3", "99999999999999999999999999", "5, 5", "٣",
  ])
  func refusesAContentLengthThatIsNotOneDecimalNumber(_ length: String) {
    #expect(rejectionStatus("POST / HTTP/1.1\r\nContent-Length: \(length)\r\n\r\n") == 400)
  }

  @Test func refusesARepeatedContentLengthEvenWhenBothAgree() {
    #expect(rejectionStatus("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\na") == 400)
  }

  @Test func refusesABodyLargerThanTheLimitBeforeReadingIt() {
    let limits = HTTPRequestParser.Limits(bodyBytes: 1024)
    #expect(rejectionStatus("POST / HTTP/1.1\r\nContent-Length: 1025\r\n\r\n", limits: limits) == 413)
    #expect(rejectionStatus("POST / HTTP/1.1\r\nContent-Length: 999999999999999999\r\n\r\n") == 413)
  }

  @Test func refusesChunkedBodiesAndTheSmugglingPair() {
    #expect(rejectionStatus("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == 501)
    #expect(rejectionStatus("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc") == 501)
  }

  @Test func refusesAHeaderFloodAsSoonAsItPassesTheLimit() {
    let limits = HTTPRequestParser.Limits(headBytes: 4096, headerCount: 10)
    let many = (0..<11).map { "X-\($0): y\r\n" }.joined()
    #expect(rejectionStatus("GET / HTTP/1.1\r\n\(many)\r\n", limits: limits) == 400)
    // No blank line yet, but already past the limit: refused without waiting for more.
    let flood = "GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 600)
    #expect(rejectionStatus(flood, limits: limits) == 400)
  }

  @Test func refusesARequestLineThatNeverEnds() {
    let limits = HTTPRequestParser.Limits(headBytes: 1024)
    #expect(rejectionStatus("GET /" + String(repeating: "a", count: 2000), limits: limits) == 400)
  }

  @Test(arguments: [
    "GET /callback HTTP/1.1\nHost: a\n\n\r\n\r\n",  // bare LF
    "GET /callback\r\n\r\n",  // no version
    "GET  /callback HTTP/1.1\r\n\r\n",  // two spaces
    "GET /callback HTTP/2.0\r\n\r\n",
    "G(T /callback HTTP/1.1\r\n\r\n",
    "GET /callback HTTP/1.1\r\nHost : a\r\n\r\n",  // space before the colon
    "GET /callback HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",  // obsolete folding
    "GET /callback HTTP/1.1\r\nno colon\r\n\r\n",
    "\r\n\r\n",
  ])
  func refusesMalformedHeads(_ text: String) {
    #expect(rejectionStatus(text) == 400)
  }

  @Test func ignoresBytesAfterTheRequestAndKeepsItsAnswer() {
    var parser = HTTPRequestParser()
    guard case .request = parser.consume(Array("GET / HTTP/1.1\r\n\r\nGARBAGE".utf8)) else {
      Issue.record()
      return
    }
    guard case .request = parser.consume(Array("more".utf8)) else {
      Issue.record()
      return
    }
  }

  @Test func survivesEveryCutOfAHostileRequest() {
    let hostile = Array(
      "POST /callback?code=%ZZ&state=%00 HTTP/1.1\r\nContent-Length: 4\r\nX: \u{1B}]0;t\u{07}\r\n\r\nbody".utf8)
    for cut in 0...hostile.count {
      var parser = HTTPRequestParser()
      _ = parser.consume(hostile[..<cut])
      _ = parser.consume(hostile[cut...])
    }
  }
}
