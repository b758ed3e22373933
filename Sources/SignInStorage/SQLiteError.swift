/// Why SQLite refused: what kind of failure it was, SQLite's own code, and one message fit to
/// show that names the file, says that nothing was written, and says what to do.
///
/// - Concurrency: `Sendable` value.
package struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds a caller tells apart; the message covers the rest.
  package enum Reason: Sendable, Equatable {
    /// Another connection held the write lock for longer than the busy timeout.
    case busy
    /// The disk (or the database's page limit) is full.
    case full
    /// The file or its folder cannot be written.
    case readOnly
    /// The file is not an SQLite database, or it is damaged.
    case damaged
    /// The file cannot be opened or created.
    case cannotOpen
    /// A `UNIQUE`, `CHECK` or foreign-key constraint refused the change.
    case constraint
    /// The file was written by a newer schema than this code reads.
    case newerSchema
    case other
  }

  package let reason: Reason
  /// SQLite's extended result code (0 for ``Reason/newerSchema``).
  package let code: Int32
  /// The whole message.
  package let message: String

  package init(_ reason: Reason, code: Int32 = 0, message: String) {
    self.reason = reason
    self.code = code
    self.message = message
  }

  package var description: String { message }

  /// The error for a call on a connection that was closed, naming the file at `path` (the
  /// in-memory database when empty).
  package static func closed(_ path: String) -> SQLiteError {
    SQLiteError(.cannotOpen, message: "\(path.isEmpty ? "The in-memory database" : path) was closed; open it again.")
  }
}
