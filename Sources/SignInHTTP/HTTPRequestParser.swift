import Foundation

/// Reads one HTTP/1.1 request (RFC 9112) from bytes as they arrive, within fixed limits.
///
/// Every loopback server in SignInKit faces every process on the machine, so the parser trusts
/// nothing: it never traps, never buffers more than its limits, and rejects what RFC 9112 says a
/// server must reject rather than guess.
///
/// - A request line must be `METHOD SP target SP HTTP/1.x CRLF` (§3); bare LF, extra spaces or
///   another version is a 400.
/// - The request line and headers together fit in ``Limits/headBytes`` and there are at most
///   ``Limits/headerCount`` headers; a longer head (a header flood, or a request line that never
///   ends) is a 400 as soon as the limit is passed, without waiting for the rest.
/// - `Content-Length` must be one run of digits (§6.3): negative, non-numeric, overflowing or
///   repeated lengths are a 400. A valid length over ``Limits/bodyBytes`` is a 413 (RFC 9110
///   §15.5.14), answered before the body is read.
/// - `Transfer-Encoding` (chunked bodies) is not supported: 501 (RFC 9112 §6.1), and together with
///   `Content-Length` it is the request-smuggling case, so never read as either.
/// - Header lines that start with whitespace (obsolete folding) or have whitespace before the
///   colon are a 400 (§5.1, §5.2).
///
/// - Concurrency: `Sendable` value; feed it from one thread.
package struct HTTPRequestParser: Sendable {
  /// How much a request may hold.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Limits: Sendable {
    /// Request line and headers, with their line ends.
    package var headBytes: Int
    package var headerCount: Int
    package var bodyBytes: Int

    package init(headBytes: Int = 16 << 10, headerCount: Int = 100, bodyBytes: Int = 1 << 20) {
      self.headBytes = headBytes
      self.headerCount = headerCount
      self.bodyBytes = bodyBytes
    }
  }

  /// Why a request was refused, and the status to answer with.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Rejection: Error, Sendable, Equatable {
    /// 400, 408, 413 or 501.
    package let status: Int
    /// What was wrong, for the reply body and for logs (never the request's bytes).
    package let reason: String

    package init(status: Int, reason: String) {
      self.status = status
      self.reason = reason
    }
  }

  /// What the bytes so far amount to.
  ///
  /// - Concurrency: `Sendable` value.
  package enum Outcome: Sendable {
    /// The request is not complete yet.
    case needsMore
    case request(LoopbackSocket.Request)
    /// Answer with the rejection's status and close; read no more from this connection.
    case rejected(Rejection)
  }

  /// A request line and headers that passed every check.
  private struct Head {
    var method: String
    var target: String
    var headers: [String: String]
    var bodyLength: Int
    var closesAfterReply: Bool
    var isHTTP10: Bool
  }

  package let limits: Limits
  /// The bytes that came after the request's body: the start of the next request on a
  /// keep-alive connection. Empty until a request is complete.
  package private(set) var leftover: [UInt8] = []
  private var buffer: [UInt8] = []
  /// Once the head is read: the parsed head and the body's length.
  private var head: Head?
  private var bodyStart = 0
  /// How far the search for the head's end has looked, so trickled bytes are scanned once.
  private var scanned = 0
  private var finalOutcome: Outcome?

  package init(limits: Limits = Limits()) {
    self.limits = limits
  }

  /// Adds the next bytes read from the connection and says whether a request is complete.
  ///
  /// After it returns ``Outcome/request(_:)`` or ``Outcome/rejected(_:)`` it keeps returning
  /// that outcome and reads no more; bytes after the request's body are kept in ``leftover``
  /// for the parser of the next request.
  package mutating func consume(_ bytes: some Sequence<UInt8>) -> Outcome {
    if let finalOutcome { return finalOutcome }
    buffer.append(contentsOf: bytes)
    let outcome = advance()
    if case .needsMore = outcome { return outcome }
    if case .request = outcome, let head {
      leftover = Array(buffer[(bodyStart + head.bodyLength)...])
    }
    finalOutcome = outcome
    buffer = []
    return outcome
  }

  /// Whether any byte of a request has arrived.
  package var hasStarted: Bool { !buffer.isEmpty || head != nil || finalOutcome != nil }

  /// Parses a whole input at once: a request, a rejection, or `needsMore` when it is cut short.
  package static func parse(_ bytes: some Sequence<UInt8>, limits: Limits = Limits()) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    return parser.consume(bytes)
  }

  private mutating func advance() -> Outcome {
    if head == nil {
      let found: Int?
      switch headEnd() {
      case .failure(let rejection): return .rejected(rejection)
      case .success(let end): found = end
      }
      guard let end = found else {
        // Past the limit without a blank line: a flood or a line that never ends.
        if buffer.count > limits.headBytes {
          return .rejected(Self.badRequest("the request line and headers are longer than \(limits.headBytes) bytes"))
        }
        return .needsMore
      }
      guard end <= limits.headBytes else {
        return .rejected(Self.badRequest("the request line and headers are longer than \(limits.headBytes) bytes"))
      }
      switch parseHead(buffer[..<end]) {
      case .failure(let rejection): return .rejected(rejection)
      case .success(let parsed): head = parsed
      }
      bodyStart = end + 4
    }
    guard let head else { return .needsMore }
    guard buffer.count - bodyStart >= head.bodyLength else { return .needsMore }
    let body = Data(buffer[bodyStart..<(bodyStart + head.bodyLength)])
    return .request(
      LoopbackSocket.Request(
        method: head.method, target: head.target, headers: head.headers, body: body,
        closesAfterReply: head.closesAfterReply, isHTTP10: head.isHTTP10))
  }

  /// The offset of the `CRLF CRLF` that ends the head, if it has arrived; a rejection as soon
  /// as a CR or LF stands alone, so a head with bare line ends is refused without waiting.
  private mutating func headEnd() -> Result<Int?, Rejection> {
    var index = max(0, scanned - 3)
    defer { scanned = buffer.count }
    while index < buffer.count {
      switch buffer[index] {
      case 10 where index == 0 || buffer[index - 1] != 13:
        return .failure(Self.bareLineEnd)
      case 13 where index + 1 < buffer.count && buffer[index + 1] != 10:
        return .failure(Self.bareLineEnd)
      case 13
      where index + 3 < buffer.count && buffer[index + 1] == 10 && buffer[index + 2] == 13
        && buffer[index + 3] == 10:
        return .success(index)
      default:
        index += 1
      }
    }
    return .success(nil)
  }

  private static let bareLineEnd = badRequest("a line ends in a bare LF or CR; lines end in CRLF")

  private func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<Head, Rejection> {
    let lines = Self.lines(bytes)
    guard let lines else { return .failure(Self.badRequest("a line ends in a bare LF or CR; lines end in CRLF")) }
    guard let requestLine = lines.first, let parts = Self.requestLine(requestLine) else {
      return .failure(Self.badRequest("the request line is not METHOD SP target SP HTTP/1.x"))
    }
    let fields = lines.dropFirst()
    guard fields.count <= limits.headerCount else {
      return .failure(Self.badRequest("more than \(limits.headerCount) headers"))
    }
    var headers: [String: String] = [:]
    var lengths: [String] = []
    for line in fields {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[line.startIndex..<colon].allSatisfy(Self.isTokenCharacter)
      else {
        return .failure(Self.badRequest("a header line is not name: value"))
      }
      let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
      let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
      if name == "content-length" { lengths.append(value) }
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    if headers["transfer-encoding"] != nil {
      return .failure(
        Rejection(status: 501, reason: "Transfer-Encoding is not supported; send the body with a Content-Length"))
    }
    var bodyLength = 0
    if !lengths.isEmpty {
      guard lengths.count == 1 else { return .failure(Self.badRequest("Content-Length is given more than once")) }
      let digits = lengths[0]
      guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ (48...57).contains($0) }),
        let length = Int(digits)
      else {
        return .failure(Self.badRequest("Content-Length is not a non-negative decimal number"))
      }
      guard length <= limits.bodyBytes else {
        return .failure(Rejection(status: 413, reason: "the body is larger than \(limits.bodyBytes) bytes"))
      }
      bodyLength = length
    }
    // RFC 9112 §9.3: HTTP/1.1 keeps the connection open unless told `close`; 1.0 closes it
    // unless told `keep-alive`.
    let options = (headers["connection"] ?? "").lowercased().split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let closes = options.contains("close") || (parts.isHTTP10 && !options.contains("keep-alive"))
    return .success(
      Head(
        method: parts.method, target: parts.target, headers: headers, bodyLength: bodyLength,
        closesAfterReply: closes, isHTTP10: parts.isHTTP10))
  }

  /// Splits the head at CRLF; `nil` when a CR or LF stands alone.
  private static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      switch bytes[index] {
      case 13:
        guard index + 1 < bytes.endIndex, bytes[index + 1] == 10 else { return nil }
        lines.append(bytes[start..<index])
        index += 2
        start = index
      case 10:
        return nil
      default:
        index += 1
      }
    }
    lines.append(bytes[start..<bytes.endIndex])
    return lines
  }

  private static func requestLine(_ line: ArraySlice<UInt8>) -> (method: String, target: String, isHTTP10: Bool)? {
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter),
      !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 32 && $0 < 127 }),
      parts[2].elementsEqual("HTTP/1.1".utf8) || parts[2].elementsEqual("HTTP/1.0".utf8)
    else { return nil }
    return (
      String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self),
      parts[2].elementsEqual("HTTP/1.0".utf8)
    )
  }

  /// RFC 9110 §5.6.2 `tchar`.
  private static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  private static func badRequest(_ reason: String) -> Rejection { Rejection(status: 400, reason: reason) }
}
