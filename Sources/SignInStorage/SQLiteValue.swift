/// A value SQLite stores or returns: its five storage classes.
///
/// - Concurrency: `Sendable` value.
package enum SQLiteValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// `text`, or `null` for `nil`.
  package static func text(_ text: String?) -> SQLiteValue { text.map { .text($0) } ?? .null }
  /// `integer`, or `null` for `nil`.
  package static func integer(_ number: Int64?) -> SQLiteValue { number.map { .integer($0) } ?? .null }
}

/// One row of a query's result, by column position.
///
/// - Concurrency: `Sendable` value.
package struct SQLiteRow: Sendable, Equatable {
  package let values: [SQLiteValue]

  package subscript(_ column: Int) -> SQLiteValue { values[column] }

  /// The column as text; `nil` when it is `NULL` or not text.
  package func text(_ column: Int) -> String? {
    if case .text(let text) = values[column] { return text }
    return nil
  }

  /// The column as an integer; `nil` when it is `NULL` or not an integer.
  package func integer(_ column: Int) -> Int64? {
    if case .integer(let number) = values[column] { return number }
    return nil
  }

  /// The column as a floating-point number (an integer converted); `nil` when it is `NULL` or
  /// neither.
  package func real(_ column: Int) -> Double? {
    switch values[column] {
    case .real(let number): number
    case .integer(let number): Double(number)
    case .null, .text, .blob: nil
    }
  }

  /// The column as bytes (text counts as its UTF-8); `nil` when it is `NULL`.
  package func blob(_ column: Int) -> [UInt8]? {
    switch values[column] {
    case .blob(let bytes): bytes
    case .text(let text): Array(text.utf8)
    case .null, .integer, .real: nil
    }
  }
}
