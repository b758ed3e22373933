import Foundation
import SignInConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP listening socket on 127.0.0.1, for ``PollingHTTPServer``, and the HTTP/1.1 reply head
/// it writes.
///
/// - Concurrency: `Sendable`; ``close()`` may be called from anywhere, any number of times: the
///   descriptor is closed once.
package final class LoopbackSocket: Sendable {
  /// One HTTP request as read from a connection.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Request: Sendable, Equatable {
    package let method: String
    /// Path and query, as sent.
    package let target: String
    /// Header names lowercased.
    package let headers: [String: String]
    package let body: Data
    /// The client asked to close the connection after the reply (`Connection: close`, or
    /// HTTP/1.0 without `keep-alive`).
    package var closesAfterReply = false
    /// The request line said `HTTP/1.0` (which may leave out `Host`), not `HTTP/1.1`.
    package var isHTTP10 = false

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
    let descriptor = SocketCalls.openStreamSocket()
    guard descriptor >= 0 else { throw SocketError(message: "Cannot open a socket (errno \(errno)).") }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = SocketCalls.loopbackAddress(port: port)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, systemListen(descriptor, 1024) == 0 else {
      let code = errno
      systemClose(descriptor)
      throw SocketError(
        message: "Cannot listen on 127.0.0.1:\(port) (errno \(code)). Is the port in use? Choose another, or 0 for any."
      )
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return LoopbackSocket(descriptor: descriptor, port: UInt16(bigEndian: address.sin_port))
  }

  /// Stops listening; calling it again does nothing.
  package func close() {
    let closes = isClosed.withLock { isClosed in
      defer { isClosed = true }
      return !isClosed
    }
    if closes { systemClose(descriptor) }
  }

  deinit { close() }

  /// A reply's status line and headers, announcing `contentLength` body bytes; `keepAlive`
  /// says the connection stays open for the next request. `headers` are added as given; a
  /// name or value with a line break is dropped, so a value cannot add a header of its own.
  package static func head(
    status: Int, contentType: String, contentLength: Int, keepAlive: Bool = false,
    headers: [(name: String, value: String)] = []
  ) -> Data {
    var head = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\nContent-Type: \(contentType)\r\n"
    head += "Content-Length: \(contentLength)\r\nCache-Control: no-store\r\n"
    for (name, value) in headers where !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) {
      head += "\(name): \(value)\r\n"
    }
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    return Data(head.utf8)
  }

  private static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 403: "Forbidden"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 421: "Misdirected Request"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    default: "Reply"
    }
  }

  /// Closes `connection` with a TCP reset instead of an orderly close (linger 0), as a server
  /// or middlebox that drops a connection does.
  package static func reset(_ connection: Int32) {
    var linger = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
    systemClose(connection)
  }
}

// The C calls, named apart from the methods above that shadow them inside the type.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemClose(_ descriptor: Int32) { close(descriptor) }
