/// What a sign-in that needs a second factor hands back, in the error it throws
/// (``AuthError/secondFactor``, code ``AuthError/Code/secondFactorRequired``): the factors to
/// choose from, and the pending first sign-in that ``Auth/resolveSignIn(_:enrollmentID:code:)``
/// completes (FirebaseAuth's `MultiFactorResolver`). It expires after a few minutes.
///
/// Its `description` never shows the pending credential.
///
/// - Concurrency: `Sendable` value.
public struct SecondFactorChallenge: Sendable, Equatable, CustomStringConvertible {
  /// The enrolled factors; the user picks one.
  public var factors: [MultiFactorInfo]
  /// How the first factor signed in (`password`, `google.com`…).
  public var firstFactor: ProviderID
  /// The backend's proof that the first factor passed (`mfaPendingCredential`).
  public var pendingCredential: String

  public init(factors: [MultiFactorInfo], firstFactor: ProviderID, pendingCredential: String) {
    self.factors = factors
    self.firstFactor = firstFactor
    self.pendingCredential = pendingCredential
  }

  public var description: String {
    "SecondFactorChallenge(\(factors.map(\.kind.rawValue).joined(separator: ", ")) after \(firstFactor))"
  }
}
