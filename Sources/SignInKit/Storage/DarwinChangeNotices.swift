#if canImport(Darwin)
  import Darwin
  import notify
  import Foundation

  /// ``ChangeNotices`` as Darwin notifications (`notify_post`, `notify_register_dispatch`): heard
  /// by every process of the user on the device, an app's extensions included. They carry no
  /// data; the listener reads the keychain.
  ///
  /// - Concurrency: `Sendable`; the `notify` calls are thread-safe.
  package struct DarwinChangeNotices: ChangeNotices {
    package init() {}

    package func post(_ name: String) {
      _ = notify_post(name)
    }

    package func notices(named name: String) -> AsyncStream<Void> {
      let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
      var token: Int32 = 0
      let status = notify_register_dispatch(name, &token, DispatchQueue.global()) { _ in continuation.yield() }
      guard status == UInt32(NOTIFY_STATUS_OK) else {
        continuation.finish()
        return stream
      }
      let registered = token
      continuation.onTermination = { _ in _ = notify_cancel(registered) }
      continuation.yield()
      return stream
    }
  }
#endif
