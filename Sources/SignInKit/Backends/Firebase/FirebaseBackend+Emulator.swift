import Foundation
import SignInHTTP
import SignInWire

/// One code the Auth emulator would have emailed, from its outbox.
///
/// - Concurrency: `Sendable` value.
package struct FirebaseEmulatorOobCode: Sendable, Equatable {
  package var email: String
  /// `PASSWORD_RESET`, `VERIFY_EMAIL`, `VERIFY_AND_CHANGE_EMAIL` or `EMAIL_SIGNIN`.
  package var requestType: String
  package var oobCode: String
  package var oobLink: String?

  package init(email: String, requestType: String, oobCode: String, oobLink: String? = nil) {
    self.email = email
    self.requestType = requestType
    self.oobCode = oobCode
    self.oobLink = oobLink
  }
}

extension FirebaseBackend {
  /// The codes the emulator would have emailed, oldest first
  /// (`GET /emulator/v1/projects/PROJECT/oobCodes`): the emulator's stand-in for an inbox. A
  /// backend with a ``tenantID`` reads its tenant's (`…/tenants/TENANT/oobCodes`).
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` against production, which has no outbox;
  ///   transport and reply errors as for any call.
  package func emulatorOobCodes() async throws -> [FirebaseEmulatorOobCode] {
    guard emulatorHost != nil || inProcess != nil else {
      throw AuthError(
        .misconfigured, "Only the Auth emulator shows sent codes; production Firebase emails them. Check the inbox.")
    }
    let reply = try await callForTenant(FirebaseAPI.oobCodes)
    return (reply.oobCodes ?? []).compactMap { code in
      guard let oobCode = code.oobCode else { return nil }
      return FirebaseEmulatorOobCode(
        email: code.email ?? "", requestType: code.requestType?.rawValue ?? "", oobCode: oobCode,
        oobLink: code.oobLink)
    }
  }

  /// The codes the emulator would have texted, oldest first
  /// (`GET /emulator/v1/projects/PROJECT/verificationCodes`): its stand-in for a phone. Each is
  /// listed until it is used or expires. A backend with a ``tenantID`` reads its tenant's.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` against production, which texts them;
  ///   transport and reply errors as for any call.
  package func emulatorTextMessages() async throws -> [FirebaseEmulatorTextMessage] {
    guard emulatorHost != nil || inProcess != nil else {
      throw AuthError(
        .misconfigured, "Only the Auth emulator shows texted codes; production Firebase texts them. Check the phone.")
    }
    let reply = try await callForTenant(FirebaseAPI.verificationCodes)
    return (reply.verificationCodes ?? []).compactMap { message in
      guard let code = message.code, let verificationID = message.sessionInfo else { return nil }
      return FirebaseEmulatorTextMessage(
        phoneNumber: message.phoneNumber ?? "", verificationID: verificationID, code: code)
    }
  }

  /// Calls one of the emulator's lists: the tenant's (`…/tenants/T/…`) when this backend signs
  /// users in to a tenant, whose codes the project's list does not hold; else the project's.
  private func callForTenant<Reply>(_ endpoint: Endpoint<NoBody, Reply>) async throws -> Reply {
    guard let tenantID, let path = endpoint.paths.first(where: { $0.template.description.contains("{tenant}") })
    else { return try await call(endpoint, NoBody()) }
    return try await call(endpoint, NoBody(), placeholders: ["tenant": tenantID], on: path)
  }
}
