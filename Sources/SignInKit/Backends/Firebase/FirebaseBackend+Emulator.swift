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
    guard let emulatorHost else {
      throw AuthError(
        .misconfigured, "Only the Auth emulator shows sent codes; production Firebase emails them. Check the inbox.")
    }
    let url = URL(string: "http://\(emulatorHost)/emulator/v1/projects/\(FormEncoding.escape(projectID))/oobCodes")!
    let reply: EmulatorOobCodesReply = try await exchange(
      HTTPRequest(
        method: "GET", url: url, headers: [("X-Client-Version", Self.clientVersion)], timeout: requestTimeout),
      call: "oobCodes")
    return (reply.oobCodes ?? []).compactMap { code in
      guard let oobCode = code.oobCode else { return nil }
      return FirebaseEmulatorOobCode(
        email: code.email ?? "", requestType: code.requestType ?? "", oobCode: oobCode, oobLink: code.oobLink)
    }
  }
}
