/// The reply to a texted code: the verification it belongs to (`sessionInfo`), sent back with
/// the code, and how long it can be used when the backend says.
///
/// - Concurrency: `Sendable` value.
public struct PhoneCodeResponse: Sendable, Equatable {
  public var verificationID: String
  /// How long the code can be used; `nil` when the backend does not say (Firebase's REST API).
  public var expiresIn: Duration?

  public init(verificationID: String, expiresIn: Duration? = nil) {
    self.verificationID = verificationID
    self.expiresIn = expiresIn
  }
}
