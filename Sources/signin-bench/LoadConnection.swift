import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One keep-alive HTTP/1.1 connection to a loopback port that posts JSON and reads each reply
/// whole: row 7's load generator. A server's throughput is measured with a client that costs
/// the shared cores as little as it can (as `wrk` or `hey` would); `URLSession` on Linux spends
/// more per request than the server does, so it measures the client.
///
/// - Concurrency: not `Sendable`; one thread owns a connection and makes blocking calls on it.
final class LoadConnection {
  private let descriptor: Int32
  private let host: String
  private var buffer: [UInt8] = []

  init(port: UInt16) throws {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw BenchError("socket failed: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw BenchError("connect to 127.0.0.1:\(port) failed: errno \(errno)")
    }
    var on: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    self.descriptor = descriptor
    host = "127.0.0.1:\(port)"
  }

  deinit { close(descriptor) }

  /// POSTs `body` as JSON to `target` and returns the reply's status and body.
  func post(_ target: String, json body: [UInt8]) throws -> (status: Int, body: [UInt8]) {
    let head =
      "POST \(target) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\n\r\n"
    var request = Array(head.utf8)
    request += body
    var sent = 0
    while sent < request.count {
      let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, 0) }
      guard count > 0 else { throw BenchError("send failed: errno \(errno)") }
      sent += count
    }
    return try readReply()
  }

  private func readReply() throws -> (status: Int, body: [UInt8]) {
    let separator: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    while headEnd == nil {
      headEnd = buffer.firstRange(of: separator)?.upperBound
      if headEnd == nil { try fill() }
    }
    let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
    let lines = head.split(separator: "\r\n")
    guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
    else { throw BenchError("not an HTTP reply: \(head.prefix(80))") }
    let length =
      lines.dropFirst().lazy.compactMap { line -> Int? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
        return Int(parts[1].trimmingCharacters(in: .whitespaces))
      }.first ?? 0
    while buffer.count < headEnd! + length { try fill() }
    let body = Array(buffer[headEnd!..<(headEnd! + length)])
    buffer.removeFirst(headEnd! + length)
    return (status, body)
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
    guard count > 0 else { throw BenchError("the server closed the connection (errno \(errno))") }
    buffer += chunk[..<count]
  }
}
