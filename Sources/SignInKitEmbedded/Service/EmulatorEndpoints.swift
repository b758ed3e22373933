import Foundation
import SignInKit
import SignInWire

/// The Firebase emulator's own endpoints, under `/emulator/v1/projects/PROJECT[/tenants/T]/`,
/// which test suites call between tests: `DELETE …/accounts` (every account gone), `GET` and
/// `PATCH …/config` (email enumeration protection on or off), `GET …/oobCodes` (the codes it
/// would have emailed, each with a link to this server's action page) and
/// `GET …/verificationCodes` (the codes it would have texted); the readiness probe `GET /`, and
/// the page an emailed link opens (`/emulator/action`).
package enum EmulatorEndpoints {
  static func ready(_ body: NoBody, _ context: ServiceContext) async throws -> EmulatorReadyReply {
    EmulatorReadyReply(ready: true, accountsPage: accountsPage(baseURL: context.baseURL))
  }

  static func clearAccounts(_ body: NoBody, _ context: ServiceContext) async throws -> NoBody {
    try await context.backend().deleteAllAccounts()
    return NoBody()
  }

  static func config(_ body: NoBody, _ context: ServiceContext) async throws -> EmulatorProjectConfig {
    await config(of: try await context.backend())
  }

  /// Changes the fields the body names; one account per email is how the embedded backend keeps
  /// accounts, so `allowDuplicateEmails: true` is refused and changes nothing.
  static func updateConfig(_ body: EmulatorProjectConfig, _ context: ServiceContext) async throws
    -> EmulatorProjectConfig
  {
    let backend = try await context.backend()
    if body.signIn?.allowDuplicateEmails == true {
      throw FirebaseFailure(
        .invalidArgument, "signin serve keeps one account per email; signIn.allowDuplicateEmails cannot be turned on")
    }
    if let on = body.emailPrivacyConfig?.enableImprovedEmailPrivacy {
      await backend.setEmailEnumerationProtection(on)
    }
    return await config(of: backend)
  }

  private static func config(of backend: EmbeddedBackend) async -> EmulatorProjectConfig {
    var config = EmulatorProjectConfig()
    config.signIn = .init(allowDuplicateEmails: false)
    config.emailPrivacyConfig = .init(enableImprovedEmailPrivacy: await backend.emailEnumerationProtection)
    return config
  }

  static func oobCodes(_ body: NoBody, _ context: ServiceContext) async throws -> EmulatorOobCodesReply {
    var reply = EmulatorOobCodesReply()
    reply.oobCodes = try await context.backend().mailbox().map { message in
      var code = EmulatorOobCodesReply.Code()
      code.email = message.to
      code.requestType = OobRequestType(rawValue: message.kind)
      code.oobCode = message.code
      code.oobLink = servedLink(of: message, baseURL: context.baseURL)
      return code
    }
    return reply
  }

  /// The accounts page of the server at `baseURL`.
  package static func accountsPage(baseURL: URL) -> String {
    baseURL.appendingPathComponent(FirebaseAPI.emulatorAccountsPage.paths[0].template.description).absoluteString
  }

  /// A sent message as the Firebase emulator logs it: the link to follow (on the action page of
  /// the server at `baseURL`, once it listens), or the code to type.
  package static func logLine(for message: OutgoingMessage, baseURL: URL?) -> String {
    switch message {
    case .email(let mail):
      let link =
        baseURL.flatMap { servedLink(of: mail, baseURL: $0) } ?? mail.link ?? "(no link; the code is \(mail.code))"
      let purpose =
        switch OobRequestType(rawValue: mail.kind) {
        case .passwordReset: "To reset the password for \(mail.to)"
        case .emailSignIn: "To sign in as \(mail.to)"
        case .verifyAndChangeEmail: "To change the email address to \(mail.to)"
        case .verifyEmail, .recoverEmail, nil: "To verify the email address \(mail.to)"
        }
      return "\(purpose), follow this link: \(link)\n"
    case .text(let text):
      return "To verify the phone number \(text.phoneNumber), use the code \(text.code).\n"
    }
  }

  /// The link of `message` on this server's action page at `baseURL`, as the emulator gives
  /// it, keeping the continue URL the email's own link carries.
  package static func servedLink(of message: MailboxMessage, baseURL: URL) -> String? {
    OobRequestType(rawValue: message.kind).flatMap { kind in
      actionLink(
        baseURL: baseURL, kind: kind, code: message.code,
        continueURL: message.link.flatMap(URLComponents.init(string:))?.queryItems?
          .first { $0.name == EmulatorActionQuery.CodingKeys.continueUrl.stringValue }?.value)
    }
  }

  static func verificationCodes(_ body: NoBody, _ context: ServiceContext) async throws
    -> EmulatorVerificationCodesReply
  {
    var reply = EmulatorVerificationCodesReply()
    reply.verificationCodes = try await context.backend().verificationCodes().map {
      .init(code: $0.code, phoneNumber: $0.phoneNumber, sessionInfo: $0.sessionInfo)
    }
    return reply
  }

  /// The silent pushes this server would have sent to iOS apps, for a test to deliver.
  static func pushNotifications(_ body: NoBody, _ context: ServiceContext) async throws
    -> EmulatorPushNotificationsReply
  {
    var reply = EmulatorPushNotificationsReply()
    reply.pushNotifications = context.projects.pushes.all
    return reply
  }

  /// A link to this server's action page for a code of `kind`, as the emulator's links read
  /// (`…/emulator/action?mode=…&lang=en&oobCode=…&apiKey=fake-api-key[&continueUrl=…]`).
  static func actionLink(baseURL: URL, kind: OobRequestType, code: String, continueURL: String?) -> String? {
    var query = EmulatorActionQuery()
    query.mode = kind.actionMode
    query.lang = "en"
    query.oobCode = code
    query.apiKey = "fake-api-key"
    query.continueUrl = continueURL
    let path = FirebaseAPI.emulatorAction.paths[0]
    var link = URLComponents(
      url: baseURL.appendingPathComponent(path.template.description), resolvingAgainstBaseURL: false)
    link?.queryItems = EmulatorActionQuery.CodingKeys.allCases.compactMap { key in
      let value: String? =
        switch key {
        case .mode: query.mode
        case .lang: query.lang
        case .oobCode: query.oobCode
        case .apiKey: query.apiKey
        case .continueUrl: query.continueUrl
        case .newPassword: nil
        }
      return value.map { URLQueryItem(name: key.stringValue, value: $0) }
    }
    return link?.string
  }

  /// The page an out-of-band link opens: `mode=verifyEmail` (or `verifyAndChangeEmail`)
  /// verifies the address; `mode=resetPassword` sets `newPassword` when the link carries one and
  /// otherwise says how; `mode=signIn` says where the link is used (the app signs in with it).
  static func action(_ query: EmulatorActionQuery, _ context: ServiceContext) async throws -> EmulatorActionPage {
    guard let code = query.oobCode, !code.isEmpty else {
      return EmulatorActionPage("This link has no oobCode. Copy the whole link from the email.", status: 400)
    }
    let backend = context.project
    do {
      switch query.mode.flatMap(OobRequestType.init(actionMode:)) {
      case .verifyEmail, .verifyAndChangeEmail:
        let response = try await backend.run {
          try await $0.accounts.update(UpdateAccountRequest(idToken: nil, oobCode: code))
        }
        return EmulatorActionPage(
          "The email address \(response.account.email ?? "") is verified. You can close this page.")
      case .emailSignIn:
        let email =
          try await backend.run { try await $0.mail.resetPassword(ResetPasswordRequest(oobCode: code)) }.email ?? ""
        return EmulatorActionPage(
          "This link signs in \(email). Open it in the app that asked for it, or pass the whole link to "
            + "Auth.signIn(email:link:) (the REPL's signin-link EMAIL LINK).")
      case .passwordReset:
        guard let newPassword = query.newPassword else {
          let email =
            try await backend.run { try await $0.mail.resetPassword(ResetPasswordRequest(oobCode: code)) }.email ?? ""
          return EmulatorActionPage(
            "This link resets the password of \(email). Open it again with &newPassword=… added, "
              + "or send its oobCode with a newPassword to \(FirebaseAPI.resetPassword.name).")
        }
        let email = try await backend.run {
          try await $0.mail.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: newPassword))
        }.email
        return EmulatorActionPage("The password of \(email ?? "the account") is changed. Sign in with the new one.")
      case .recoverEmail, nil:
        return EmulatorActionPage(
          "This link's mode is not verifyEmail, verifyAndChangeEmail, resetPassword or signIn. "
            + "Copy the whole link from the email.", status: 400)
      }
    } catch {
      return EmulatorActionPage(AuthError.wrapping(error).message, status: 400)
    }
  }
}
