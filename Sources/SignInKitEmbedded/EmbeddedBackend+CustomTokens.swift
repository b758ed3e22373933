import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

extension EmbeddedBackend {
  /// The `aud` of every Firebase custom token.
  public static let customTokenAudience =
    "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

  /// How far a signing server's clock may run ahead of this one: a custom token issued later
  /// than that is refused, so `iat` cannot stretch a token's life past an hour.
  static let customTokenClockSkew: TimeInterval = 60

}
