import Dispatch
import Foundation
import SignInConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Announces changes to one file in a folder, made by any process: created, replaced by a
/// rename, written or removed.
///
/// On Linux one inotify descriptor and one thread serve every watch in the process; on Apple
/// platforms each watch is a dispatch source on the folder.
///
/// - Concurrency: `Sendable` namespace.
package enum FolderWatch {
  /// A value once the watch is in place, then each time `fileName` in `folder` may have changed
  /// (the folder is made with mode 0700 when missing, so there is something to watch). Changes
  /// close together may come as one value; the consumer reads the file to see what it holds.
  /// The watch ends when the consumer stops iterating or its task is cancelled.
  ///
  /// - Throws: ``FileError`` when the folder cannot be made or watched.
  package static func changes(of fileName: String, in folder: URL) throws(FileError) -> AsyncStream<Void> {
    try PrivateFolder.create(at: folder)
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    #if os(Linux)
      let id = try InotifyWatches.shared.add(fileName: fileName, folder: folder, continuation: continuation)
      continuation.onTermination = { _ in InotifyWatches.shared.remove(id) }
    #else
      let descriptor = open(folder.path, O_EVTONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw FileError("The folder \(folder.path) could not be watched (\(String(cString: strerror(errno)))).")
      }
      // A folder's entries change on a create, rename or removal: the file's, or a sibling's.
      let source = DispatchSource.makeFileSystemObjectSource(
        fileDescriptor: descriptor, eventMask: [.write, .link, .rename, .delete], queue: .global())
      source.setEventHandler { continuation.yield() }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      continuation.onTermination = { _ in source.cancel() }
    #endif
    // Watching now: the first value lets the follower read the file once, so a change made
    // before the watch began is not missed.
    continuation.yield()
    return stream
  }
}

#if os(Linux)
  /// The process's inotify descriptor, the thread that reads it, and the watches it serves.
  ///
  /// - Concurrency: `Sendable`; the watches are `Locked`-guarded; the thread only reads the
  ///   descriptor.
  final class InotifyWatches: Sendable {
    static let shared = InotifyWatches()

    private struct Watch {
      var descriptor: Int32
      var fileName: String
      var continuation: AsyncStream<Void>.Continuation
    }

    private struct Watches {
      var byID: [Int: Watch] = [:]
      var nextID = 0
    }

    private let descriptor: Int32
    private let watches = Locked(Watches())
    private static let mask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)

    private init() {
      descriptor = inotify_init1(Int32(IN_CLOEXEC))
      guard descriptor >= 0 else { return }
      Thread.detachNewThread { [self] in
        Thread.current.name = "folder watch"
        readEvents()
      }
    }

    func add(fileName: String, folder: URL, continuation: AsyncStream<Void>.Continuation) throws(FileError) -> Int {
      guard descriptor >= 0 else {
        throw FileError("inotify is not available here (\(String(cString: strerror(errno)))).")
      }
      let watch = inotify_add_watch(descriptor, folder.path, Self.mask)
      guard watch >= 0 else {
        throw FileError("The folder \(folder.path) could not be watched (\(String(cString: strerror(errno)))).")
      }
      return watches.withLock { watches in
        defer { watches.nextID += 1 }
        watches.byID[watches.nextID] = Watch(descriptor: watch, fileName: fileName, continuation: continuation)
        return watches.nextID
      }
    }

    func remove(_ id: Int) {
      watches.withLock { watches in
        guard let removed = watches.byID.removeValue(forKey: id) else { return }
        // The kernel keeps one watch per folder, shared by every file watched in it.
        if !watches.byID.values.contains(where: { $0.descriptor == removed.descriptor }) {
          inotify_rm_watch(descriptor, removed.descriptor)
        }
      }
    }

    private func readEvents() {
      let capacity = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, capacity)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        var changed: [(watch: Int32, name: String)] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          var name = ""
          if event.len > 0 {
            let bytes = UnsafeRawBufferPointer(start: buffer + offset + header, count: Int(event.len))
            name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
          }
          changed.append((event.wd, name))
          offset += header + Int(event.len)
        }
        let continuations = watches.withLock { watches in
          watches.byID.values.filter { watch in
            // An overflowed queue (-1) may have lost anyone's change.
            changed.contains { $0.watch == -1 || ($0.watch == watch.descriptor && $0.name == watch.fileName) }
          }.map { $0.continuation }
        }
        for continuation in continuations { continuation.yield() }
      }
    }
  }
#endif
