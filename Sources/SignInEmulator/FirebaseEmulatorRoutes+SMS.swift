import Foundation
import SignInFoundation
import SignInKit
import SignInKitEmbedded

extension FirebaseEmulatorRoutes {
  /// The v2 second-factor calls for an SMS factor, told apart by their fields:
  /// `mfaEnrollment:start` with `phoneEnrollmentInfo`, `mfaSignIn:start` with `phoneSignInInfo`,
  /// and either `…:finalize` with `phoneVerificationInfo`. The codes are listed by
  /// `/emulator/v1/projects/P/verificationCodes`, as the emulator lists them. `nil` for a TOTP
  /// call.
  func smsSecondFactor(_ name: String, _ fields: [String: JSONValue]) async -> Reply? {
    let verification = fields["phoneVerificationInfo"]?.object
    do {
      switch name {
      case "mfaEnrollment:start":
        guard let info = fields["phoneEnrollmentInfo"]?.object else { return nil }
        let sessionInfo = try await backend.startPhoneEnrollment(
          idToken: try Self.string("idToken", in: fields), phoneNumber: info["phoneNumber"]?.string)
        return Self.json(["phoneSessionInfo": .object(["sessionInfo": .string(sessionInfo)])])
      case "mfaEnrollment:finalize":
        guard let verification else { return nil }
        let tokens = try await backend.finalizePhoneEnrollment(
          idToken: try Self.string("idToken", in: fields), sessionInfo: verification["sessionInfo"]?.string,
          code: verification["code"]?.string, displayName: fields["displayName"]?.string)
        return Self.reply(Self.tokens(tokens))
      case "mfaSignIn:start":
        guard fields["phoneSignInInfo"] != nil else { return nil }
        let sessionInfo = try await backend.startPhoneSecondFactor(
          pendingCredential: try Self.string("mfaPendingCredential", in: fields),
          enrollmentID: try Self.string("mfaEnrollmentId", in: fields))
        return Self.json(["phoneResponseInfo": .object(["sessionInfo": .string(sessionInfo)])])
      case "mfaSignIn:finalize":
        guard let verification else { return nil }
        let (tokens, _) = try await backend.finalizePhoneSecondFactor(
          pendingCredential: try Self.string("mfaPendingCredential", in: fields),
          enrollmentID: fields["mfaEnrollmentId"]?.string, sessionInfo: verification["sessionInfo"]?.string,
          code: verification["code"]?.string)
        return Self.reply(Self.tokens(tokens))
      default:
        return nil
      }
    } catch {
      return Self.failure(AuthError.wrapping(error))
    }
  }
}
