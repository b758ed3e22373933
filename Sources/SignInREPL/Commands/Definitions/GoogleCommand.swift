import Foundation
import SignInKit

/// `google [--issuer URL] [--client-id ID] [--client-secret S] [--device] [--device-endpoint URL]
/// [--server-client-id ID [--reveal]] | google --account EMAIL | google --id-token TOKEN`: Sign in
/// with Google or any OpenID issuer (offline: the embedded IdP's account chooser, or --account), or
/// with a Google ID token obtained elsewhere.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct GoogleCommand: REPLCommand {
  package static let name = "google"
  package static let usage =
    "google [--issuer URL] [--client-id ID] [--client-secret S] [--device] [--device-endpoint URL] "
    + "[--server-client-id ID [--reveal]] | google --account EMAIL | google --id-token TOKEN"
  package static let summary =
    "Sign in with Google or any OpenID issuer (offline: the embedded IdP's account chooser, or --account), or "
    + "with a Google ID token obtained elsewhere."

  package let options: GoogleOptions
}

extension GoogleCommand {
  package init(arguments: [String]) throws(CommandError) {
    var options = GoogleOptions()
    var rest = arguments[...]
    while let flag = rest.popFirst() {
      if flag == "--device", !options.device {
        options.device = true
        continue
      }
      if flag == "--reveal", !options.revealsServerCode {
        options.revealsServerCode = true
        continue
      }
      guard let value = rest.popFirst(), !value.hasPrefix("--") else { throw Self.usageError }
      switch flag {
      case "--issuer" where options.issuer == nil && value.hasPrefix("http"): options.issuer = value
      case "--client-id" where options.clientID == nil: options.clientID = value
      case "--client-secret" where options.clientSecret == nil: options.clientSecret = value
      case "--device-endpoint" where options.deviceEndpoint == nil && value.hasPrefix("http"):
        options.deviceEndpoint = URL(string: value)
      case "--id-token" where options.idToken == nil: options.idToken = value
      case "--account" where options.account == nil && value.contains("@"): options.account = value
      case "--server-client-id" where options.serverClientID == nil: options.serverClientID = value
      default: throw Self.usageError
      }
    }
    // The server's code comes from an issuer's code exchange only.
    if options.revealsServerCode && options.serverClientID == nil { throw Self.usageError }
    if options.serverClientID != nil && options.issuer == nil { throw Self.usageError }
    // A held token, or the offline account, is the whole sign-in: the flow's options would go
    // unused.
    if options.idToken != nil, options != GoogleOptions(idToken: options.idToken) { throw Self.usageError }
    if options.account != nil, options != GoogleOptions(account: options.account) { throw Self.usageError }
    self.options = options
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    let needsValue = [
      "--issuer", "--client-id", "--client-secret", "--device-endpoint", "--id-token", "--account",
      "--server-client-id",
    ]
    guard !needsValue.contains(arguments.last ?? "") else { return [] }
    return (needsValue + ["--device", "--reveal"]).filter { !arguments.contains($0) }
  }

  package var carriesSecret: Bool { options.clientSecret != nil || options.idToken != nil }

  package func run(in session: isolated REPLSession) async throws {
    if let idToken = options.idToken {
      let result = try await session.withSecondFactor {
        try await session.auth.signIn(with: ProviderCredential.google(idToken: idToken))
      }
      await session.say(TranscriptFormatter.signedIn(result))
      return
    }
    let provider = try await session.googleProvider(options)
    let result = try await session.withSecondFactor { try await session.auth.signIn(with: provider) }
    await session.say(TranscriptFormatter.signedIn(result))
    if let serverClientID = options.serverClientID {
      await session.say(
        TranscriptFormatter.serverAuthCode(
          result.credential?.serverAuthCode, for: serverClientID, reveal: options.revealsServerCode))
    }
  }
}
