import Foundation
import SignInConcurrency
import SignInFoundation
import SignInKit
import SignInKitEmbedded

extension SigninOptions.HashCost {
  /// The scrypt parameters of new hashes at this cost.
  package var parameters: ScryptParameters { self == .test ? .test : .firebase }

  /// What the first lines of `signin serve` say about it, its figures read from ``parameters``.
  package var summary: String {
    let figures = "scrypt N=\(parameters.n), r=\(parameters.r), p=\(parameters.p)"
    switch self {
    case .test:
      return "Password hashes: test cost (\(figures)), fast and real but for tests only; "
        + "--hash-cost firebase for Firebase's."
    case .firebase:
      return "Password hashes: Firebase's cost (\(figures)); --hash-cost test for a fast test server."
    }
  }
}

extension SigninOptions {
  /// The embedded Google and Apple IdPs, their keys kept in `directory/idp` (so start-up does
  /// not make RSA keys every time), or made for this process with ``inMemory``. The data folder
  /// is made here, or checked to be the user's own and not writable by others (a folder planted
  /// under a shared `/tmp` with a signing key in it is refused).
  func identityProviders(in directory: URL) throws -> (
    google: EmbeddedIdentityProvider, apple: EmbeddedIdentityProvider
  ) {
    let keys = inMemory ? nil : directory.appendingFileName("idp")
    if let keys {
      try AuthError.storage { () throws(FileError) in
        try PrivateFolder.create(at: directory)
        try PrivateFolder.create(at: keys)
      }
    }
    return (
      try .google(keyFile: keys?.appendingFileName("google-key.pem")),
      try .apple(keyFile: keys?.appendingFileName("apple-key.pem"))
    )
  }

  /// The embedded backend in `directory/backend` (in memory with ``inMemory``) for ``project``,
  /// trusting `providers` and the real issuers of ``issuers`` (discovered now). It runs on the
  /// caller's actor: at launch a hop off the main actor and back costs more than opening the
  /// backend. With `warn`, the database opens at the first call that needs it, and `warn`
  /// hears what opening it repaired; without, it opens now (`storageWarnings`).
  func embeddedBackend(
    in directory: URL, trusting providers: [EmbeddedIdentityProvider],
    announcing announce: (@Sendable (OutgoingMessage) -> Void)? = nil,
    openingDatabaseOnFirstUse warn: (@Sendable ([String]) -> Void)? = nil, isolation: isolated (any Actor)? = #isolation
  ) async throws -> EmbeddedBackend {
    var configuration = try EmbeddedBackend.Configuration(trusting: providers)
    configuration.announce = announce
    configuration.projectID = project
    configuration.acceptUnsignedCustomTokens = acceptsUnsignedCustomTokens
    // A project that enforces reCAPTCHA gets the test tokens this backend accepts.
    configuration.recaptcha = TestRecaptchaTokenProvider()
    // The emulator's fake IdP tokens (a JSON object or an unsigned JWT) go with its unsigned
    // custom tokens: both only for `signin serve`.
    configuration.acceptUnsignedIdPTokens = acceptsUnsignedCustomTokens
    if acceptsUnsignedCustomTokens {
      let told = Locked(false)
      configuration.unverifiedCustomTokenAccepted = { issuer in
        guard
          !told.withLock({ told in
            defer { told = true }
            return told
          })
        else { return }
        FileHandle.standardError.write(
          Data(
            ("warning: a custom token signed by \(issuer), a service account this server was not given, was "
              + "accepted without its signature checked, as the Firebase emulator does (said once). Pass its key "
              + "file with --service-account to have signatures checked.\n").utf8))
      }
    }
    configuration.scrypt = hashCost.parameters
    configuration.authorizedDomains = authorizedDomains + (publicURL?.host.map { [$0] } ?? [])
    for file in serviceAccountFiles {
      guard let data = FileManager.default.contents(atPath: file.path) else {
        throw AuthError(.misconfigured, "The service-account file \(file.path) cannot be read. Check the path.")
      }
      configuration.trustedServiceAccounts.append(try TrustedServiceAccount(keyFile: data))
    }
    for (provider, settings) in issuers {
      configuration.identityProviders[provider] = try await .discover(
        issuer: settings.issuer, clientIDs: [settings.clientID])
    }
    let folder = directory.appendingFileName("backend")
    if let warn, !inMemory {
      return try EmbeddedBackend(directory: folder, configuration: configuration, opensDatabaseOnFirstUse: warn)
    }
    return try EmbeddedBackend(directory: inMemory ? nil : folder, configuration: configuration)
  }
}
