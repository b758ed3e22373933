#if os(Linux)
  import CEnvironment
  import Glibc
#else
  import Foundation
#endif

/// The process's environment variables, as a dictionary.
///
/// On Linux it is read straight from the C library's `environ`: Foundation's
/// `ProcessInfo.environment` builds the same dictionary at about ten times the cost (a fifth
/// of a millisecond for a few dozen variables, measured in `signin`'s start-up), which a
/// command-line tool pays at every launch. Elsewhere it is `ProcessInfo`'s.
///
/// - Concurrency: stateless; safe from any thread. It reads the environment as it is at the
///   call, so it must not race with `setenv` (nothing in this package calls it).
package enum ProcessEnvironment {
  /// Every variable, by name. A name set twice keeps its first value, as `getenv` finds it;
  /// an entry without `=` is skipped.
  package static func current() -> [String: String] {
    #if os(Linux)
      var variables: [String: String] = [:]
      guard var entry = signinkit_environment() else { return variables }
      while let text = entry.pointee {
        if let equals = strchr(text, Int32(UInt8(ascii: "="))) {
          let name = text.withMemoryRebound(to: UInt8.self, capacity: equals - text) {
            String(decoding: UnsafeBufferPointer(start: $0, count: equals - text), as: UTF8.self)
          }
          if variables[name] == nil { variables[name] = String(cString: equals + 1) }
        }
        entry += 1
      }
      return variables
    #else
      return ProcessInfo.processInfo.environment
    #endif
  }
}
