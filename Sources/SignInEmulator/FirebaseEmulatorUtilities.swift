import Foundation
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The Firebase emulator's own endpoints, under `/emulator/v1/projects/PROJECT/`, which test
/// suites call between tests: `DELETE …/accounts` (every account gone), `GET` and `PATCH …/config`
/// (email enumeration protection on or off), `GET …/oobCodes` (the codes it would have
/// emailed, each with a link to this server's action page) and `GET …/verificationCodes` (the
/// codes it would have texted to phone numbers).
///
/// Each project answers for itself, made on first use (``EmulatorProjects``).
///
/// - Concurrency: `Sendable` value; calls run on the backend's actor.
struct FirebaseEmulatorUtilities: Sendable {
  typealias Routes = FirebaseEmulatorRoutes
  typealias Reply = FirebaseEmulatorRoutes.Reply

  let projects: EmulatorProjects
  /// Where links to this server's action page start.
  let baseURL: URL

  /// Answers `method` on `path`, the part after `/emulator/v1/projects/`; `nil` when no utility
  /// has that path.
  func reply(method: String, path: String, body: Data) async -> Reply? {
    var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    // `P/tenants/T/…`: the same utilities for one tenant of P.
    let tenant = parts.count == 4 && parts[1] == "tenants" ? parts[2] : nil
    if tenant != nil { parts = [parts[0], parts[3]] }
    guard parts.count == 2, ["accounts", "config", "oobCodes", "verificationCodes"].contains(parts[1]) else {
      return nil
    }
    var backend: EmbeddedBackend
    switch projects.backend(for: parts[0]) {
    case .refused(let refusal): return refusal
    case .project(let project): backend = project
    }
    if let tenant {
      do {
        backend = try projects.tenants(of: backend).backend(for: tenant)
      } catch {
        return Routes.failure(AuthError.wrapping(error))
      }
    }
    do {
      switch (parts[1], method) {
      case ("accounts", "DELETE"):
        try await backend.deleteAllAccounts()
        return Routes.json([:])
      case ("config", "GET"):
        return Routes.reply(await config(of: backend))
      case ("config", "PATCH"):
        return try await updateConfig(of: backend, body)
      case ("oobCodes", "GET"):
        return await oobCodes(of: backend)
      case ("verificationCodes", "GET"):
        let codes = await backend.verificationCodes().map { code -> JSONValue in
          .object([
            "phoneNumber": .string(code.phoneNumber), "sessionInfo": .string(code.sessionInfo),
            "code": .string(code.code),
          ])
        }
        return Routes.json(["verificationCodes": .array(codes)])
      default:
        return Routes.failure(405, "METHOD_NOT_ALLOWED")
      }
    } catch let error as WireError {
      return Routes.failure(400, error.description)
    } catch {
      return Routes.failure(AuthError.wrapping(error))
    }
  }

  private func config(of backend: EmbeddedBackend) async -> EmulatorProjectConfig {
    var config = EmulatorProjectConfig()
    config.signIn = .init(allowDuplicateEmails: false)
    config.emailPrivacyConfig = .init(enableImprovedEmailPrivacy: await backend.emailEnumerationProtection)
    return config
  }

  /// Changes the fields the body names; one account per email is how the embedded backend keeps
  /// accounts, so `allowDuplicateEmails: true` is refused and changes nothing.
  private func updateConfig(of backend: EmbeddedBackend, _ body: Data) async throws -> Reply {
    let change = try EmulatorProjectConfig.decoded(from: body)
    if change.signIn?.allowDuplicateEmails == true {
      return Routes.failure(
        400,
        "INVALID_ARGUMENT : signin serve keeps one account per email; signIn.allowDuplicateEmails "
          + "cannot be turned on")
    }
    if let on = change.emailPrivacyConfig?.enableImprovedEmailPrivacy {
      await backend.setEmailEnumerationProtection(on)
    }
    return Routes.reply(await config(of: backend))
  }

  private func oobCodes(of backend: EmbeddedBackend) async -> Reply {
    var reply = EmulatorOobCodesReply()
    reply.oobCodes = await backend.mailbox().map { message in
      var code = OobCodeReply()
      code.email = message.to
      code.requestType = message.kind
      code.oobCode = message.code
      code.oobLink = Self.actionLink(
        baseURL: baseURL, kind: message.kind, code: message.code,
        continueURL: message.link.flatMap(URLComponents.init(string:))?.queryItems?
          .first { $0.name == "continueUrl" }?.value)
      return code
    }
    return Routes.reply(reply)
  }

  /// The action modes of Firebase's emailed links, by request type.
  static let modes = [
    "PASSWORD_RESET": "resetPassword", "VERIFY_EMAIL": "verifyEmail",
    "VERIFY_AND_CHANGE_EMAIL": "verifyAndChangeEmail", "EMAIL_SIGNIN": "signIn",
  ]

  /// A link to this server's action page for a code of `kind`, as the emulator's links read
  /// (`…/emulator/action?mode=…&lang=en&oobCode=…&apiKey=fake-api-key[&continueUrl=…]`).
  static func actionLink(baseURL: URL, kind: String, code: String, continueURL: String?) -> String? {
    guard let mode = modes[kind] else { return nil }
    var link = URLComponents(url: baseURL.appendingPathComponent("emulator/action"), resolvingAgainstBaseURL: false)
    link?.queryItems = [
      URLQueryItem(name: "mode", value: mode), URLQueryItem(name: "lang", value: "en"),
      URLQueryItem(name: "oobCode", value: code), URLQueryItem(name: "apiKey", value: "fake-api-key"),
    ]
    if let continueURL { link?.queryItems?.append(URLQueryItem(name: "continueUrl", value: continueURL)) }
    return link?.string
  }
}
