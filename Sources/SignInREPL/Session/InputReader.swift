import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lines and secrets from standard input, read on a dedicated queue so a blocked read never
/// holds a cooperative thread. A secret is read without echo from a terminal (`getpass`), or
/// as the next line when standard input is a pipe or file.
///
/// - Concurrency: `Sendable`; reads are serialized on its queue.
public final class InputReader: Sendable {
  private let queue = DispatchQueue(label: "signin.input")
  /// Whether standard input is a terminal.
  public let isTerminal = isatty(STDIN_FILENO) == 1

  public init() {}

  /// The next line without its newline, or `nil` at end of input.
  public func line() async -> String? {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: readLine(strippingNewline: true)) }
    }
  }

  /// A secret: typed without echo on a terminal, else the next line. Never stored in history.
  public func secret(prompt: String) async -> String? {
    guard isTerminal else { return await line() }
    return await withCheckedContinuation { continuation in
      queue.async {
        guard let raw = getpass(prompt) else { return continuation.resume(returning: nil) }
        continuation.resume(returning: String(cString: raw))
      }
    }
  }
}
