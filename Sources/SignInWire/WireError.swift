/// Why a request body could not be read, in the words of Firebase's `INVALID_ARGUMENT` errors.
///
/// - Concurrency: `Sendable` value.
package enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The body is not a JSON object.
  case notAnObject
  /// A field holds a value of the wrong type (a number where a string belongs).
  case invalidValue(field: String, expected: String)
  /// A field the call needs is absent or empty.
  case missing(field: String)

  /// The server's message: `INVALID_ARGUMENT : …`, or `MISSING_EMAIL`.
  package var description: String {
    switch self {
    case .notAnObject:
      "INVALID_ARGUMENT : the body is not a JSON object"
    case .invalidValue(let field, let expected):
      "INVALID_ARGUMENT : Invalid value at '\(field)' (\(expected)); send it as in Firebase's REST reference"
    case .missing(let field):
      // Firebase's code for it: `MISSING_ID_TOKEN` for `idToken`.
      "MISSING_" + WireFieldName.snakeCased(field).uppercased()
    }
  }
}
