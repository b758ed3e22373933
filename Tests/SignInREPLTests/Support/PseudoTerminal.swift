import Foundation
import SignInConcurrency
import SignInKit
import SignInKitTesting
import SignInTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `signin` on a pseudo-terminal, as a person at a terminal would: it types keys
/// and waits for text to appear. Waiting is on the output itself (a semaphore signalled per
/// chunk read), never on a timer; the deadline only turns a hang into a failure.
final class PseudoTerminal {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// What the reading thread has collected.
  private struct Output: Sendable {
    var bytes: [UInt8] = []
    var isClosed = false
  }

  private let master: Int32
  private let process = Process()
  private let output = Locked(Output())
  private let arrived = DispatchSemaphore(value: 0)
  private let readerDone = DispatchSemaphore(value: 0)
  /// How far into the plain transcript ``waitFor(_:)`` has matched.
  private var matched: String.Index?

  init(arguments: [String], environment: [String: String] = [:], columns: UInt16 = 100) async throws {
    master = PseudoTerminalCalls.openMaster(O_RDWR | O_NOCTTY)
    guard master >= 0, PseudoTerminalCalls.grant(master) == 0, PseudoTerminalCalls.unlock(master) == 0 else {
      throw Failure(description: "no pseudo-terminal: errno \(errno)")
    }
    var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    var name = [CChar](repeating: 0, count: 128)
    guard PseudoTerminalCalls.name(master, &name, name.count) == 0 else {
      throw Failure(description: "ptsname failed")
    }
    let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let replica = open(path, O_RDWR | O_NOCTTY)
    guard replica >= 0 else { throw Failure(description: "cannot open the replica: errno \(errno)") }
    let handle = FileHandle(fileDescriptor: replica, closeOnDealloc: true)

    process.executableURL = SigninBinary.url
    process.arguments = arguments
    var inherited = ProcessInfo.processInfo.environment
    inherited["TERM"] = "xterm-256color"
    inherited.removeValue(forKey: "NO_COLOR")
    process.environment = inherited.merging(environment) { $1 }
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try await ProcessLaunchGate.shared.launching { try process.run() }
    try handle.close()

    let (master, output, arrived, readerDone) = (master, output, arrived, readerDone)
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        output.withLock { $0.bytes += buffer[..<count] }
        arrived.signal()
      }
      output.withLock { $0.isClosed = true }
      arrived.signal()
      readerDone.signal()
    }
  }

  deinit {
    if process.isRunning { process.terminate() }
    close(master)
  }

  /// Everything the program wrote, with colour and cursor sequences and carriage returns removed.
  var transcript: String { Self.plain(rawTranscript) }

  /// Everything the program wrote, as written.
  var rawTranscript: String { String(decoding: output.withLock { $0.bytes }, as: UTF8.self) }

  static func plain(_ text: String) -> String {
    text.replacing(/\x{1B}\[[0-9;?]*[A-Za-z]/, with: "").replacing("\r", with: "")
  }

  /// Waits for `semaphore` on a dispatch thread, so the awaiting task holds no cooperative thread.
  private static func wait(for semaphore: DispatchSemaphore, until deadline: Date) async -> Bool {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: semaphore.wait(timeout: .now() + deadline.timeIntervalSinceNow) == .success)
      }
    }
  }

  /// Types `text` (use `\r` for Enter, `\u{03}` for Ctrl-C, `\u{1B}[A` for up).
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Waits until `text` appears after what the previous wait matched.
  func waitFor(_ text: String, timeout: TimeInterval = 90) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let (plain, closed) = (transcript, output.withLock { $0.isClosed })
      let start = matched.flatMap { $0 <= plain.endIndex ? $0 : nil } ?? plain.startIndex
      if let range = plain[start...].range(of: text) {
        matched = range.upperBound
        return
      }
      guard !closed, await Self.wait(for: arrived, until: deadline) else {
        throw Failure(description: "'\(text)' did not appear; the terminal shows:\n\(plain[start...])")
      }
    }
  }

  /// Waits until `text` appears, then for the end of its line, and returns the rest of it.
  func line(after text: String, timeout: TimeInterval = 90) async throws -> String {
    try await waitFor(text, timeout: timeout)
    let start = matched!
    try await waitFor("\n", timeout: timeout)
    return String(transcript[start..<transcript.index(before: matched!)])
  }

  /// Sends SIGINT, as `kill -INT` does.
  func interrupt() { process.interrupt() }

  /// Waits for the program to exit and returns its status.
  func exitStatus(timeout: TimeInterval = 90) async throws -> Int32 {
    guard await Self.wait(for: readerDone, until: Date().addingTimeInterval(timeout)) else {
      throw Failure(description: "signin did not exit; the terminal shows:\n\(transcript)")
    }
    process.waitUntilExit()
    return process.terminationStatus
  }
}

/// glibc's pseudo-terminal calls, which its Swift module does not export (they sit behind
/// `_XOPEN_SOURCE`), looked up in the C library at run time.
enum PseudoTerminalCalls {
  private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function {
    guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("\(name) is missing") }
    return unsafeBitCast(address, to: type)
  }

  static let openMaster = symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
  static let grant = symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self)
  static let unlock = symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
  static let name = symbol(
    "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
}
