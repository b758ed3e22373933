import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lines from standard input when it is a pipe or a file (a script): commands, and a command's
/// password or chosen account as the next line. Lines are read on a dedicated queue so a blocked
/// read never holds a cooperative thread.
///
/// - Concurrency: `Sendable`; reads are serialized on its queue.
package final class PipeInput: InputSource {
  private let queue = DispatchQueue(label: "signin.input")
  package let isTerminal = false

  package init() {}

  /// The next line without its newline, or `nil` at end of input. Prompts are not shown:
  /// nobody is there to read them.
  package func line(prompt: String = "") async -> String? {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: readLine(strippingNewline: true)) }
    }
  }

  package func secret(prompt: String) async -> String? { await line(prompt: prompt) }
}
