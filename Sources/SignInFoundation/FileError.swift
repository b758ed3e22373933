/// Why a file or folder could not be read, written or made: the path, the system's words, and
/// what to do, in one message fit to show. SignInKit reports it as a `storage` error.
///
/// - Concurrency: `Sendable` value.
package struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The whole message.
  package let message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
