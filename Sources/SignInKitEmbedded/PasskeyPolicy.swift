import Foundation

/// The WebAuthn relying party an embedded backend's passkeys belong to: its id, the origins it
/// serves, and whether it requires user verification.
///
/// The default is `localhost`, serving every `http(s)://localhost[:port]` page, which a browser
/// on the same machine and the development authenticator use. An app's passkeys on an Apple
/// device belong to its associated domain: set ``relyingPartyID`` to it (`example.com`), whose
/// origin `https://example.com` is then served.
///
/// - Concurrency: `Sendable` value.
public struct PasskeyPolicy: Sendable, Equatable {
  /// The relying party id: a registrable domain, or `localhost`.
  public var relyingPartyID: String
  /// Origins served beyond `https://RELYING_PARTY_ID` (an Android app's
  /// `android:apk-key-hash:…`, a second web origin).
  public var additionalOrigins: [String]
  /// Whether a passkey must verify the person (biometrics, PIN), not only their presence.
  public var requiresUserVerification: Bool
  /// How long a challenge can be answered.
  public var challengeLifetime: Duration

  public init(
    relyingPartyID: String = "localhost", additionalOrigins: [String] = [], requiresUserVerification: Bool = false,
    challengeLifetime: Duration = .seconds(300)
  ) {
    self.relyingPartyID = relyingPartyID
    self.additionalOrigins = additionalOrigins
    self.requiresUserVerification = requiresUserVerification
    self.challengeLifetime = challengeLifetime
  }
}
