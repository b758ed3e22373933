import Foundation
import SignInCrypto
import SignInKit
import SignInKitEmbedded

/// A person's authenticator app, as the tests play it: it verifies the account's email from
/// the embedded backend's mailbox (enrolling needs it), enrols a TOTP second factor through
/// `backend` (in process or over the wire), and makes its codes.
package struct AuthenticatorApp: Sendable {
  /// The factor's enrollment id.
  package let enrollmentID: String
  package let secret: [UInt8]

  /// Verifies `email` and enrols an app for the user of `idToken`, with this step's code; the
  /// clock then moves to the next step, whose code the next sign-in needs (a code works once).
  package static func enrol(
    on backend: some AuthBackend, mailbox: EmbeddedBackend, email: String, idToken: String, clock: TestDate
  ) async throws -> AuthenticatorApp {
    _ = try await backend.sendOobCode(.verifyEmail(idToken: idToken), settings: nil)
    guard let code = await mailbox.mailbox(for: email).last?.code else {
      throw AuthError(.internal, "no verification mail for \(email)")
    }
    _ = try await backend.update(UpdateAccountRequest(oobCode: code))
    guard case .secret(let totp) = try await backend.secondFactor(.startTOTPEnrollment(idToken: idToken)) else {
      throw AuthError(.internal, "no secret")
    }
    guard let secret = Base32.decode(totp.secretKey) else { throw AuthError(.internal, "the secret is not base32") }
    guard
      case .tokens(let tokens, _) = try await backend.secondFactor(
        .finalizeTOTPEnrollment(
          idToken: idToken, sessionInfo: totp.sessionInfo, code: OneTimePassword.totp(secret: secret, at: clock.now),
          displayName: nil))
    else { throw AuthError(.internal, "no tokens") }
    let user = try await backend.lookup(LookupRequest(idToken: tokens.idToken))
    guard let factor = user.secondFactors.first?.enrollmentID else { throw AuthError(.internal, "no factor") }
    clock.advance(30)
    return AuthenticatorApp(enrollmentID: factor, secret: secret)
  }

  /// The code the app shows at `date`.
  package func code(at date: Date) -> String { OneTimePassword.totp(secret: secret, at: date) }
}
