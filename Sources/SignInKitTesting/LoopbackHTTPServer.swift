import Foundation
import SignInKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for end-to-end tests of the real transport: it reads
/// each request (request line, headers, `Content-Length` body), asks `handler` for the reply,
/// answers and closes the connection. A `nil` reply holds the connection open without
/// answering, to make the client time out. Every request is recorded.
///
/// - Concurrency: `Sendable`; each connection is served on its own thread, and `handler` may be
///   called concurrently.
public final class LoopbackHTTPServer: Sendable {
  /// One request as the server read it.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Request: Sendable {
    public let method: String
    /// Path and query, as sent.
    public let target: String
    /// Header names lowercased.
    public let headers: [String: String]
    public let body: Data
  }

  /// What to answer.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Reply: Sendable {
    public var status: Int
    public var body: String
    public var contentType: String

    public init(status: Int, body: String, contentType: String = "application/json") {
      self.status = status
      self.body = body
      self.contentType = contentType
    }
  }

  public let port: UInt16
  private let listener: Int32
  private let handler: @Sendable (Request) -> Reply?
  private let recorded = Locked<[Request]>([])
  private let heldConnections = Locked<[Int32]>([])
  private let arrivals = DispatchSemaphore(value: 0)
  private let isStopped = Locked(false)

  /// Starts listening on a free port of 127.0.0.1.
  public init(handler: @escaping @Sendable (Request) -> Reply?) throws {
    self.handler = handler
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      throw AuthError(.network, "the loopback server could not listen: errno \(errno)")
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    self.listener = listener
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  /// `127.0.0.1:PORT`.
  public var host: String { "127.0.0.1:\(port)" }

  /// Every request so far, in arrival order.
  public var requests: [Request] { recorded.withLock { $0 } }

  /// Waits (off the cooperative pool) until one more request has arrived.
  public func nextArrival() async {
    let arrivals = arrivals
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        arrivals.wait()
        continuation.resume()
      }
    }
  }

  /// Stops listening and drops held connections.
  public func stop() {
    // Once only: a second close could hit a descriptor number reused by another test.
    guard !isStopped.withLock({ stopped in defer { stopped = true }; return stopped }) else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    for connection in heldConnections.withLock({ $0 }) { close(connection) }
  }

  deinit { stop() }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      Thread.detachNewThread { [self] in serve(connection) }
    }
  }

  private func serve(_ connection: Int32) {
    guard let request = read(connection) else {
      close(connection)
      return
    }
    recorded.withLock { $0.append(request) }
    arrivals.signal()
    guard let reply = handler(request) else {
      heldConnections.withLock { $0.append(connection) }
      return
    }
    let body = Data(reply.body.utf8)
    var head = "HTTP/1.1 \(reply.status) Reply\r\nContent-Type: \(reply.contentType)\r\n"
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Data(head.utf8) + body
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if sent <= 0 { break }
        offset += sent
      }
    }
    close(connection)
  }

  private func read(_ connection: Int32) -> Request? {
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 8192)
    while true {
      if let end = buffer.range(of: Data("\r\n\r\n".utf8)) {
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
          guard let colon = line.firstIndex(of: ":") else { continue }
          headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count - end.upperBound < length {
          let count = recv(connection, &chunk, chunk.count, 0)
          guard count > 0 else { return nil }
          buffer.append(contentsOf: chunk[..<count])
        }
        let bodyStart = end.upperBound
        return Request(
          method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
          body: buffer[bodyStart..<(bodyStart + length)])
      }
      let count = recv(connection, &chunk, chunk.count, 0)
      guard count > 0 else { return nil }
      buffer.append(contentsOf: chunk[..<count])
    }
  }
}
