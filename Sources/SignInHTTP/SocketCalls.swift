#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The socket calls whose spelling differs between Glibc and Darwin, in one place: the stream
/// socket type (an enum on Glibc, an `Int32` on Darwin), the address length field Darwin has,
/// and how a write to a closed peer is kept from raising `SIGPIPE` (`MSG_NOSIGNAL` per call on
/// Linux, `SO_NOSIGPIPE` per socket on Darwin).
///
/// - Concurrency: stateless; any thread.
package enum SocketCalls {
  /// A new TCP/IPv4 socket that never raises `SIGPIPE`, or -1 with `errno` set.
  package static func openStreamSocket() -> Int32 {
    #if canImport(Darwin)
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    if descriptor >= 0 { suppressSignalOnWrite(descriptor) }
    return descriptor
  }

  /// The next connection on listening socket `descriptor` (never raising `SIGPIPE`), or -1 with
  /// `errno` set.
  package static func accept(_ descriptor: Int32) -> Int32 {
    let connection = systemAccept(descriptor)
    if connection >= 0 { suppressSignalOnWrite(connection) }
    return connection
  }

  /// `send` without `SIGPIPE` when the peer has gone: -1 with `EPIPE` instead.
  package static func send(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
      systemSend(descriptor, buffer, count, 0)
    #else
      systemSend(descriptor, buffer, count, Int32(MSG_NOSIGNAL))
    #endif
  }

  /// How many descriptors this process may have open (the soft `RLIMIT_NOFILE`), at most
  /// `Int32.max`.
  package static func descriptorLimit() -> Int {
    var limit = rlimit()
    #if canImport(Darwin)
      let status = getrlimit(RLIMIT_NOFILE, &limit)
    #else
      let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    #endif
    guard status == 0 else { return 256 }
    return Int(min(limit.rlim_cur, rlim_t(Int32.max)))
  }

  /// The IPv4 address 127.0.0.1:`port`.
  package static func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    return address
  }

  private static func suppressSignalOnWrite(_ descriptor: Int32) {
    #if canImport(Darwin)
      var on: Int32 = 1
      _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }
}

// The C calls, named apart from the methods above that shadow them inside the type.
private func systemAccept(_ descriptor: Int32) -> Int32 { accept(descriptor, nil, nil) }
private func systemSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
  send(descriptor, buffer, count, flags)
}
