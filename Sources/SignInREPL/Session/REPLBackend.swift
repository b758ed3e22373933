import SignInKit
import SignInKitEmbedded

/// The backend the REPL talks to, with what it offers beyond ``AuthBackend``: an outbox of sent
/// codes (`mailbox`), the emails an account chooser can list, and whether the embedded identity
/// providers' tokens are accepted (the embedded backend verifies them; the emulator, like
/// Firebase's, accepts any; production Firebase needs real Google and Apple sign-in).
///
/// - Concurrency: `Sendable` value.
package enum REPLBackend: Sendable {
  case embedded(EmbeddedBackend)
  case firebase(FirebaseBackend)

  /// One code the backend "emailed".
  ///
  /// - Concurrency: `Sendable` value.
  package struct SentCode: Sendable, Equatable {
    package let kind: String
    package let to: String
    package let code: String
    /// The link the email carries, when the backend says.
    package let link: String?
  }

  package var auth: any AuthBackend {
    switch self {
    case .embedded(let backend): backend
    case .firebase(let backend): backend
    }
  }

  /// Which backend this is, where it is and which project (and tenant) it serves, in words: the
  /// banner and `state` say it.
  package var summary: String {
    let tenant = auth.tenantID.map { ", tenant \($0)" } ?? ""
    switch self {
    case .embedded(let backend):
      let place = backend.directory.map { "data in \($0.deletingLastPathComponent().path)" } ?? "in memory"
      return "the embedded backend, project \(backend.configuration.projectID)\(tenant), \(place)"
    case .firebase(let client):
      guard let host = client.emulatorHost else {
        return "Firebase Authentication (production), project \(client.projectID)\(tenant)"
      }
      return "the Firebase Auth emulator at \(host), project \(client.projectID)\(tenant)"
    }
  }

  /// The folder under the data folder where this backend's session is kept, so a session of one
  /// backend (or emulator host) is never restored against another: the embedded backend's in
  /// `session`, as it always was; an emulator's in `sessions/emulator-HOST-PORT`; production's in
  /// `sessions/firebase`.
  package var sessionFolder: String {
    switch self {
    case .embedded: "session"
    case .firebase(let client):
      client.emulatorHost.map {
        "sessions/emulator-" + "\($0)".map { $0.isLetter || $0.isNumber || $0 == "." ? String($0) : "-" }.joined()
      } ?? "sessions/firebase"
    }
  }

  /// Whether `google` and `apple` can sign in with the embedded identity providers.
  package var acceptsEmbeddedIdentityProviders: Bool {
    switch self {
    case .embedded: true
    case .firebase(let backend): backend.emulatorHost != nil
    }
  }

  /// The codes sent to `email` (or to anyone), oldest first.
  package func mailbox(for email: String?) async throws -> [SentCode] {
    switch self {
    case .embedded(let backend):
      return await backend.mailbox(for: email).map { SentCode(kind: $0.kind, to: $0.to, code: $0.code, link: $0.link) }
    case .firebase(let backend):
      return try await backend.emulatorOobCodes()
        .filter { email == nil || $0.email.lowercased() == email?.lowercased() }
        .map { SentCode(kind: $0.requestType, to: $0.email, code: $0.oobCode, link: $0.oobLink) }
    }
  }

  /// One code the backend "texted".
  ///
  /// - Concurrency: `Sendable` value.
  package struct TextedCode: Sendable, Equatable {
    package let to: String
    package let code: String
    /// The verification it answers.
    package let verificationID: String
  }

  /// Whether the backend shows the codes it texts (the embedded backend and the emulator do;
  /// production Firebase texts them).
  package var showsTextedCodes: Bool {
    switch self {
    case .embedded: true
    case .firebase(let backend): backend.emulatorHost != nil
    }
  }

  /// The codes texted to `phoneNumber` (or to anyone) that can still be used, oldest first.
  package func texts(to phoneNumber: String?) async throws -> [TextedCode] {
    switch self {
    case .embedded(let backend):
      return await backend.verificationCodes()
        .filter { phoneNumber == nil || $0.phoneNumber == phoneNumber }
        .map { TextedCode(to: $0.phoneNumber, code: $0.code, verificationID: $0.sessionInfo) }
    case .firebase(let backend):
      return try await backend.emulatorTextMessages()
        .filter { phoneNumber == nil || $0.phoneNumber == phoneNumber }
        .map { TextedCode(to: $0.phoneNumber, code: $0.code, verificationID: $0.verificationID) }
    }
  }

  /// The emails of known accounts (at `provider` when given); Firebase does not list them to
  /// clients, so there it is empty.
  package func knownEmails(signedInWith provider: ProviderID? = nil) async -> [String] {
    switch self {
    case .embedded(let backend): await backend.emails(signedInWith: provider)
    case .firebase: []
    }
  }

  /// Releases what the backend holds (the embedded backend's database connection).
  package func close() async {
    if case .embedded(let backend) = self { await backend.close() }
  }
}
