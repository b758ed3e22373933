import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP listening socket on 127.0.0.1 and the little HTTP/1.1 it needs: read one request
/// (request line, headers, `Content-Length` body), write one reply, close. Used by the OAuth
/// loopback redirect listener (RFC 8252 §7.3) and by test servers.
///
/// - Concurrency: `Sendable`; ``accept()`` blocks its calling thread, so call it from a
///   dedicated thread. ``close()`` wakes a blocked ``accept()`` and may be called from anywhere,
///   any number of times: the descriptor is closed once.
package final class LoopbackSocket: Sendable {
  /// One HTTP request as read from a connection.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Request: Sendable {
    package let method: String
    /// Path and query, as sent.
    package let target: String
    /// Header names lowercased.
    package let headers: [String: String]
    package let body: Data

    /// The path without the query.
    package var path: String { String(target.prefix { $0 != "?" }) }

    /// The query's parameters, percent-decoded (`+` as a space).
    package var query: [String: String] {
      guard let mark = target.firstIndex(of: "?") else { return [:] }
      var fields: [String: String] = [:]
      for pair in target[target.index(after: mark)...].split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map {
          $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
        }
        if let name = parts.first { fields[name] = parts.count > 1 ? parts[1] : "" }
      }
      return fields
    }
  }

  package let descriptor: Int32
  package let port: UInt16
  private let isClosed = Locked(false)

  private init(descriptor: Int32, port: UInt16) {
    self.descriptor = descriptor
    self.port = port
  }

  /// Listens on 127.0.0.1 at `port` (0: any free port).
  package static func listen(port: UInt16 = 0) throws -> LoopbackSocket {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw AuthError(.network, "Cannot open a socket (errno \(errno)).") }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, systemListen(descriptor, 16) == 0 else {
      let code = errno
      systemClose(descriptor)
      throw AuthError(
        .network, "Cannot listen on 127.0.0.1:\(port) (errno \(code)). Is the port in use? Choose another, or 0 for any.")
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return LoopbackSocket(descriptor: descriptor, port: UInt16(bigEndian: address.sin_port))
  }

  /// The next connection, or `nil` once the socket is closed.
  package func accept() -> Int32? {
    while true {
      let connection = systemAccept(descriptor)
      if connection >= 0 { return connection }
      if errno == EINTR { continue }
      return nil
    }
  }

  /// Stops listening; a blocked ``accept()`` returns `nil`.
  package func close() {
    // Once only: closing again could close a descriptor number reused elsewhere.
    guard !isClosed.withLock({ closed in defer { closed = true }; return closed }) else { return }
    shutdown(descriptor, Int32(SHUT_RDWR))
    systemClose(descriptor)
  }

  deinit { close() }

  /// Reads one request from `connection`; `nil` when it closes early or is not HTTP.
  package static func readRequest(from connection: Int32, limit: Int = 1 << 20) -> Request? {
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 8192)
    func receive() -> Bool {
      let count = recv(connection, &chunk, chunk.count, 0)
      guard count > 0, buffer.count + count <= limit else { return false }
      buffer.append(contentsOf: chunk[..<count])
      return true
    }
    while buffer.range(of: Data("\r\n\r\n".utf8)) == nil {
      guard receive() else { return nil }
    }
    let end = buffer.range(of: Data("\r\n\r\n".utf8))!
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
      guard receive() else { return nil }
    }
    return Request(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
      body: Data(buffer[end.upperBound..<(end.upperBound + length)]))
  }

  /// Writes a complete reply on `connection` and closes it.
  package static func respond(on connection: Int32, status: Int, contentType: String, body: Data) {
    sendAll(head(status: status, contentType: contentType, contentLength: body.count) + body, on: connection)
    systemClose(connection)
  }

  /// A reply's status line and headers, announcing `contentLength` body bytes.
  package static func head(status: Int, contentType: String, contentLength: Int) -> Data {
    var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Reply")\r\nContent-Type: \(contentType)\r\n"
    head += "Content-Length: \(contentLength)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
    return Data(head.utf8)
  }

  /// Writes all of `bytes`; `false` when the peer has gone.
  @discardableResult
  package static func sendAll(_ bytes: Data, on connection: Int32) -> Bool {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if sent <= 0 { return false }
        offset += sent
      }
      return true
    }
  }

  /// Closes `connection` with a TCP reset instead of an orderly close (linger 0), as a server
  /// or middlebox that drops a connection does.
  package static func reset(_ connection: Int32) {
    var linger = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
    systemClose(connection)
  }

  /// Closes a connection accepted from this socket.
  package static func close(_ connection: Int32) { systemClose(connection) }
}

// The C calls, named apart from the methods above that shadow them inside the type.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
private func systemClose(_ descriptor: Int32) { close(descriptor) }
