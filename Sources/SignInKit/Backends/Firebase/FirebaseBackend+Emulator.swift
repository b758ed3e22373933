import Foundation
import SignInHTTP
import SignInWire

/// One code the Auth emulator would have emailed, from its outbox.
///
/// - Concurrency: `Sendable` value.
public struct FirebaseEmulatorOobCode: Sendable, Equatable {
  public var email: String
  /// `PASSWORD_RESET`, `VERIFY_EMAIL`, `VERIFY_AND_CHANGE_EMAIL` or `EMAIL_SIGNIN`.
  public var requestType: String
  public var oobCode: String
  public var oobLink: String?

  public init(email: String, requestType: String, oobCode: String, oobLink: String? = nil) {
    self.email = email
    self.requestType = requestType
    self.oobCode = oobCode
    self.oobLink = oobLink
  }
}

extension FirebaseBackend {
  /// The codes the emulator would have emailed, oldest first
  /// (`GET /emulator/v1/projects/PROJECT/oobCodes`): the emulator's stand-in for an inbox.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` against production, which has no outbox;
  ///   transport and reply errors as for any call.
  public func emulatorOobCodes() async throws -> [FirebaseEmulatorOobCode] {
    guard emulatorHost != nil else {
      throw AuthError(
        .misconfigured, "Only the Auth emulator shows sent codes; production Firebase emails them. Check the inbox.")
    }
    let reply = try await call(FirebaseAPI.oobCodes, NoBody())
    return (reply.oobCodes ?? []).compactMap { code in
      guard let oobCode = code.oobCode else { return nil }
      return FirebaseEmulatorOobCode(
        email: code.email ?? "", requestType: code.requestType?.rawValue ?? "", oobCode: oobCode,
        oobLink: code.oobLink)
    }
  }

  /// The codes the emulator would have texted, oldest first
  /// (`GET /emulator/v1/projects/PROJECT/verificationCodes`): its stand-in for a phone. Each is
  /// listed until it is used or expires.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` against production, which texts them;
  ///   transport and reply errors as for any call.
  public func emulatorTextMessages() async throws -> [FirebaseEmulatorTextMessage] {
    guard emulatorHost != nil else {
      throw AuthError(
        .misconfigured, "Only the Auth emulator shows texted codes; production Firebase texts them. Check the phone.")
    }
    let reply = try await call(FirebaseAPI.verificationCodes, NoBody())
    return (reply.verificationCodes ?? []).compactMap { message in
      guard let code = message.code, let verificationID = message.sessionInfo else { return nil }
      return FirebaseEmulatorTextMessage(
        phoneNumber: message.phoneNumber ?? "", verificationID: verificationID, code: code)
    }
  }
}
