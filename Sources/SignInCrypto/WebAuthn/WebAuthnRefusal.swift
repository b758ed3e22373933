/// Why a relying party refused a WebAuthn response: what was wrong, in words a developer can
/// act on, and which kind of wrong it was.
///
/// - Concurrency: `Sendable` value.
package struct WebAuthnRefusal: Error, Equatable, CustomStringConvertible {
  /// The kinds of refusal, each one a different thing to fix.
  ///
  /// - Concurrency: `Sendable` value.
  package enum Kind: Sendable, Equatable {
    /// Not parseable, or a field missing or of the wrong type.
    case malformed
    /// Signed for another relying party id, or sent from an origin it does not serve.
    case relyingPartyMismatch
    /// Another challenge, or one already used or expired.
    case challenge
    /// The authenticator did not report a person present, or not verified when required.
    case userPresence
    /// The signature does not verify, or the counter went backwards (a cloned authenticator).
    case signature
    /// An attestation format or key type this relying party does not take.
    case unsupported
  }

  package let kind: Kind
  package let reason: String

  package init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  package var description: String { reason }
}
