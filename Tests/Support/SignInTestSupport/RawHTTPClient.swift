import Foundation
import SignInHTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP client on 127.0.0.1 that sends exact bytes, as a hostile or broken local process would,
/// and reads whatever comes back until the server closes. Every blocking read runs on a thread
/// of its own, never on the cooperative pool or a width-limited dispatch queue (on 2 cores
/// blocked dispatch workers are added about once a second), and reads give up after 60 s.
package final class RawHTTPClient: Sendable {
  package let descriptor: Int32

  /// Connects to `127.0.0.1:port`.
  package init(port: UInt16) throws {
    let descriptor = SocketCalls.openStreamSocket()
    var address = SocketCalls.loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard descriptor >= 0, connected == 0 else {
      if descriptor >= 0 { close(descriptor) }
      throw POSIXError(.ECONNREFUSED)
    }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Sends `text` as UTF-8; `false` once the server has closed.
  @discardableResult
  package func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  @discardableResult
  package func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        SocketCalls.send(descriptor, $0.baseAddress!, $0.count)
      }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }

  /// Whether the server resets the connection (or it hangs up) within 60 s, found without
  /// reading anything, so nothing the server sent is drained meanwhile.
  package func resetWithoutReading() async -> Bool {
    // No events asked for: poll reports hang-ups and errors anyway, and leaves the data
    // waiting to be read alone.
    await waitWithoutReading(for: 0, until: POLLERR | POLLHUP)
  }

  /// Whether the server's reply has started to arrive within 60 s, found without reading it.
  package func replyStartedWithoutReading() async -> Bool {
    await waitWithoutReading(for: POLLIN, until: POLLIN)
  }

  private func waitWithoutReading(for events: Int32, until wanted: Int32) async -> Bool {
    let descriptor = descriptor
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var watched = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        let end = ContinuousClock.now.advanced(by: .seconds(60))
        while ContinuousClock.now < end {
          watched.revents = 0
          let ready = poll(&watched, 1, 1000)
          if ready > 0, watched.revents & Int16(wanted) != 0 {
            return continuation.resume(returning: true)
          }
        }
        continuation.resume(returning: false)
      }
    }
  }

  /// Everything the server sends until it closes the connection (or 60 s pass).
  package func replyUntilClosed() async -> String {
    let descriptor = descriptor
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = recv(descriptor, &chunk, chunk.count, 0)
          if count < 0, errno == EINTR { continue }
          guard count > 0 else { break }
          reply += chunk[..<count]
        }
        continuation.resume(returning: String(decoding: reply, as: UTF8.self))
      }
    }
  }

  /// Sends a last request, for `target`, that asks the server to close, and returns the reply
  /// once it has. The server drops the connection before its reply ends, so when this returns
  /// the server has counted the connection out; closing from this side alone promises no such
  /// order (the FIN can be handled on another core after a new client's handshake).
  @discardableResult
  package func leave(requesting target: String = "/") async -> String {
    send("GET \(target) HTTP/1.1\r\nConnection: close\r\n\r\n")
    return await replyUntilClosed()
  }

  /// Sends one request and returns the whole reply.
  package static func exchange(_ request: String, port: UInt16) async throws -> String {
    let client = try RawHTTPClient(port: port)
    client.send(request)
    return await client.replyUntilClosed()
  }
}
