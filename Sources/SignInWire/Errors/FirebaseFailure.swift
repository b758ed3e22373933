/// A failure as Firebase Auth says it on the wire: a ``FirebaseErrorCode`` and, after ` : `, an
/// optional detail (`WEAK_PASSWORD : Password should be at least 6 characters`). The message is
/// what the error envelope carries in `error.message`; clients split it at the first colon.
///
/// - Concurrency: `Sendable` value.
package struct FirebaseFailure: Error, Sendable, Equatable, CustomStringConvertible {
  package var code: FirebaseErrorCode
  /// The text after the code; `nil` for a bare code.
  package var detail: String?
  /// Google's own wording for a few canonical errors, sent as the whole message with the code
  /// only in `status` (`The request is missing a valid API key.`).
  private var verbatim: String?
  /// How many seconds the caller should wait before trying again, when the server knows (a
  /// throttle's window): HTTP's `Retry-After`.
  package var retryAfterSeconds: Int?

  /// A failure with `code` and `detail`, or the code's ``FirebaseErrorCode/standardDetail``
  /// when `detail` is `nil`.
  package init(_ code: FirebaseErrorCode, _ detail: String? = nil) {
    self.code = code
    self.detail = detail ?? code.standardDetail
  }

  /// The failure a server's `error.message` names, or `nil` when its code is not one Firebase
  /// uses (a proxy's text, `API key not valid…`).
  package init?(message: String) {
    let (code, detail) = Self.split(message)
    guard let known = FirebaseErrorCode(rawValue: code) else { return nil }
    self.code = known
    self.detail = detail
  }

  /// `CODE` or `CODE : detail`: the envelope's `error.message`.
  package var message: String { verbatim ?? detail.map { "\(code.rawValue) : \($0)" } ?? code.rawValue }

  /// The HTTP status it is answered with.
  package var status: Int { code.status }

  package var description: String { message }

  /// The envelope Firebase answers this failure with.
  package var envelope: ErrorEnvelope {
    ErrorEnvelope(status: status, message: message, statusName: code.statusName)
  }

  /// `CODE : detail` split at the first colon, both parts trimmed; no detail when there is
  /// none, as FirebaseAuth splits it.
  package static func split(_ message: String) -> (code: String, detail: String?) {
    guard let colon = message.firstIndex(of: ":") else { return (trimmed(message[...]), nil) }
    let detail = trimmed(message[message.index(after: colon)...])
    return (trimmed(message[..<colon]), detail.isEmpty ? nil : detail)
  }

  /// A value a caller sent, fit to quote in a failure's detail: printable ASCII, at most 100
  /// characters.
  package static func printable(_ text: String) -> String {
    String(text.unicodeScalars.prefix(100).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" })
  }

  private static func trimmed(_ text: Substring) -> String {
    String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }

  /// A client call without an API key, as Google answers it: 403, `PERMISSION_DENIED`, and
  /// the message alone.
  package static let missingAPIKey = {
    var failure = FirebaseFailure(.permissionDenied)
    failure.verbatim = "The request is missing a valid API key."
    return failure
  }()

  /// A call without a valid App Check token to a project that enforces App Check: 401,
  /// `UNAUTHENTICATED`, and Google's words.
  package static let appCheckRefused = {
    var failure = FirebaseFailure(.unauthenticated)
    failure.verbatim = "Firebase App Check token is invalid."
    return failure
  }()

  // MARK: Reading a request

  /// A body that is not a JSON object (`INVALID_ARGUMENT`).
  package static let notAnObject = FirebaseFailure(.invalidArgument, "the body is not a JSON object")

  /// A field holding a value of the wrong type, in the words of Firebase's `INVALID_ARGUMENT`.
  package static func invalidValue(field: String, expected: String) -> FirebaseFailure {
    FirebaseFailure(
      .invalidArgument, "Invalid value at '\(field)' (\(expected)); send it as in Firebase's REST reference")
  }
}
