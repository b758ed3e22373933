import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInStorage

/// An in-process identity service with Firebase Auth's semantics, error codes and token shapes:
/// the offline default backend.
///
/// Accounts, refresh tokens and action codes live in an SQLite database in `directory` (or in
/// SQLite's in-memory database when it is `nil`), one transaction per call, so a crash leaves
/// the old or the new data. Several processes may share the directory (`signin` beside
/// `signin serve`): what one commits, the others see on their next call. Passwords are stored as scrypt
/// hashes with a per-user salt; refresh tokens and action codes only as SHA-256 digests. The
/// mailbox holds the text of a code only while the code can still be used (at most five
/// messages per address), so a developer can read it; a used, expired or replaced code leaves
/// it.
/// ID tokens are RS256 JWTs with a `kid` and Firebase's claims, signed by a key generated on
/// first start and kept in the directory; ``jwks`` publishes its public half.
///
/// Emails are not sent: they land in the ``mailbox(for:)``.
///
/// Its `AuthBackend` calls are `FirebaseBackend`'s, handed as the wire layer's values to the
/// identity service that `signin serve` answers HTTP with (no JSON, no socket between): the same
/// replies and the same errors as over HTTP, decided in one place. Only ``revokeRefreshToken(_:)``,
/// which Firebase has no call for, goes to the backend directly.
///
/// ```swift
/// let backend = try EmbeddedBackend(directory: dataDirectory)
/// let auth = Auth(backend: backend)
/// ```
///
/// - Concurrency: actor; its `AuthBackend` calls are `nonisolated` and reach the actor through the
///   service. Each call reads and writes on the actor without suspending, so calls
///   are linearizable; a call that throws changes nothing. Sign-up, sign-in and refresh then
///   sign their new ID token off the actor, after their changes are committed, so the backend
///   answers other calls during the RSA signature; the token's claims were fixed before.
public actor EmbeddedBackend: AuthBackend {
  /// Tunables. The defaults match Firebase's.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Configuration: Sendable {
    public var projectID: String
    /// The Identity Platform tenant these accounts belong to, or `nil` for the project's own.
    /// Its ID tokens name it (`firebase.tenant`), and a token of another tenant is refused
    /// (`TENANT_ID_MISMATCH`).
    public var tenantID: String?
    /// Lifetime of issued ID tokens (`expiresIn`). Shorten it to watch refreshes live.
    public var tokenLifetime: Duration
    /// When on, an unknown email and a wrong password both give `INVALID_LOGIN_CREDENTIALS`
    /// after the same work (a scrypt at the configured cost), and password-reset requests for
    /// unknown emails succeed silently.
    public var emailEnumerationProtection: Bool
    /// Wrong passwords allowed per email within ``attemptWindow`` before sign-in is throttled.
    ///
    /// Throttled, not locked: after that many failures each further attempt must wait
    /// ``throttleDelay``, doubling with every failure and at most ``attemptWindow``, since the
    /// last one, and is answered `TOO_MANY_ATTEMPTS_TRY_LATER` without a look at the password
    /// until then. Once the wait is over the correct password works, so the owner is slowed with
    /// the attacker but never locked out for the whole window. Emails with no account are
    /// throttled the same way, so the throttle does not tell which emails exist.
    public var maxFailedAttempts: Int
    public var attemptWindow: Duration
    /// The first wait once ``maxFailedAttempts`` is reached. Default 30 seconds.
    public var throttleDelay: Duration
    public var actionCodeLifetime: Duration
    public var scrypt: ScryptParameters
    /// IdPs whose ID tokens `signInWithIdp` verifies, by provider.
    public var identityProviders: [ProviderID: IdentityProviderTrust]
    /// Accept IdP ID tokens without checking their signature, issuer or expiry, as the Firebase
    /// emulator does (a JWT or a bare JSON object; `sub` is required). For tests only.
    public var acceptUnsignedIdPTokens: Bool
    /// Service accounts whose RS256 custom tokens ``EmbeddedBackend/signInWithCustomToken(_:)``
    /// accepts.
    public var trustedServiceAccounts: [TrustedServiceAccount] = []
    /// Accept unsigned custom tokens (`alg` `none`, or a bare JSON object), as the Firebase
    /// emulator does. `signin serve` turns it on; leave it off anywhere else.
    public var acceptUnsignedCustomTokens = false
    /// Called when, with ``acceptUnsignedCustomTokens``, an RS256 custom token of a service
    /// account not in ``trustedServiceAccounts`` is accepted without its signature checked, as
    /// the Firebase emulator accepts any; `signin serve` logs it once.
    package var unverifiedCustomTokenAccepted: (@Sendable (_ issuer: String) -> Void)?
    /// Told of each message put in the outbox (``MessageDelivery/outbox``) once its code is
    /// stored: `signin serve` prints the links and codes, as the Firebase emulator logs them.
    package var announce: (@Sendable (OutgoingMessage) -> Void)?
    /// Domains an emailed link may continue to (`continueUrl`) or be hosted on (`linkDomain`),
    /// beyond the ones every project has: `localhost`, `127.0.0.1` and the project's
    /// `<projectID>.firebaseapp.com` and `<projectID>.web.app`, as Firebase's console lists them.
    public var authorizedDomains: [String] = []
    /// Reaches IdP userinfo endpoints, for credentials that carry only an access token.
    public var transport: any HTTPTransport = URLSessionTransport()
    /// How large the tables that unauthenticated calls fill may grow.
    public var limits = Limits()
    /// Where emailed links and texted codes go: the development outbox (the default) or the
    /// app's own delivery (``MessageDelivery``).
    public var delivery: MessageDelivery = .outbox
    /// The WebAuthn relying party passkeys belong to (``PasskeyPolicy``).
    public var passkeys = PasskeyPolicy()
    /// Where this backend's client gets reCAPTCHA Enterprise tokens when the project enforces
    /// reCAPTCHA (``EmbeddedBackend/enforceRecaptcha(emailPassword:phone:)``): a
    /// ``TestRecaptchaTokenProvider``, or `nil` to send none, as an app without Google's SDK does.
    public var recaptcha: (any RecaptchaTokenProvider)?
    /// How long a change waits for another process's write to the same data folder before it
    /// fails with `AuthError/Code/storage`. Default 5 seconds.
    public var busyTimeout: Duration = .seconds(5)
    /// The key an in-memory backend signs its ID tokens with, instead of one made on first
    /// use (RSA-2048 generation costs a few hundred milliseconds). A backend in a directory
    /// always uses the key kept there. For the package's own tests, which share one key.
    package var signingKey: RSAPrivateKey?

    /// The domains links may lead to: the ones every project has (`localhost`, the loopback
    /// addresses, `PROJECT.firebaseapp.com` and `PROJECT.web.app`), then ``authorizedDomains``.
    package var linkDomains: [String] {
      let project = projectID.lowercased()
      return ["localhost", "127.0.0.1", "[::1]", "::1", "\(project).firebaseapp.com", "\(project).web.app"]
        + authorizedDomains.map { $0.lowercased() }
    }

    /// The `iss` of issued ID tokens: `https://securetoken.google.com/<projectID>`.
    package var issuer: String { "https://securetoken.google.com/\(projectID)" }

    /// The defaults, trusting the given embedded IdPs.
    public init(trusting providers: [EmbeddedIdentityProvider]) throws {
      self.init()
      for provider in providers {
        var trust = IdentityProviderTrust(issuer: provider.issuer, audiences: [provider.clientID], jwks: Data())
        // The IdP's key is read when the first token is verified, not at start-up.
        trust.embedded = provider
        identityProviders[provider.providerID] = trust
      }
    }

    public init(
      projectID: String = "signinkit-local", tokenLifetime: Duration = .seconds(3600),
      emailEnumerationProtection: Bool = false, maxFailedAttempts: Int = 5,
      attemptWindow: Duration = .seconds(15 * 60), actionCodeLifetime: Duration = .seconds(3600),
      scrypt: ScryptParameters = .firebase,
      identityProviders: [ProviderID: IdentityProviderTrust] = [:],
      acceptUnsignedIdPTokens: Bool = false, throttleDelay: Duration = .seconds(30)
    ) {
      self.throttleDelay = throttleDelay
      self.identityProviders = identityProviders
      self.acceptUnsignedIdPTokens = acceptUnsignedIdPTokens
      self.projectID = projectID
      self.tokenLifetime = tokenLifetime
      self.emailEnumerationProtection = emailEnumerationProtection
      self.maxFailedAttempts = maxFailedAttempts
      self.attemptWindow = attemptWindow
      self.actionCodeLifetime = actionCodeLifetime
      self.scrypt = scrypt
    }
  }

  /// How large the tables that unauthenticated calls fill may grow: action codes and the mail
  /// that carries them (`sendOobCode` needs no account for a sign-in link), and pending
  /// second-factor steps. Expired entries are purged in the transaction that would add more; a
  /// newer entry of one address or account replaces its oldest; past a table's limit, the call
  /// is refused with `TOO_MANY_ATTEMPTS_TRY_LATER`.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Limits: Sendable, Equatable {
    /// Live action codes one address keeps per kind.
    public var codesPerAddress = 5
    /// Live action codes in all.
    public var actionCodes = 10_000
    /// Messages the mailbox keeps per address (only those whose codes can still be used).
    public var mailPerAddress = 5
    /// Messages the mailbox keeps in all.
    public var mail = 1_000
    /// Pending enrollments, and pending second-factor sign-ins, one account keeps.
    public var pendingPerAccount = 3
    /// Pending enrollments, and pending second-factor sign-ins, in all.
    public var pending = 10_000
    /// Passkeys one account may hold: enough for every device a person owns, and a bound on
    /// what one account's record and its sign-in cost.
    public var passkeysPerAccount = 20
    /// Recent failures (wrong passwords and codes) the throttle remembers, in all; the oldest go
    /// first. With enumeration protection every unknown address adds one.
    public var loginFailures = 100_000

    public init() {}
  }

  /// Where an IdP's ID tokens come from and which keys sign them.
  ///
  /// - Concurrency: `Sendable` value.
  public struct IdentityProviderTrust: Sendable {
    public var issuer: String
    /// Accepted `aud` values: the app's client ids at the IdP.
    public var audiences: Set<String>
    /// The IdP's JWK Set, as its `jwks_uri` serves it. For an embedded IdP it is read from the
    /// IdP on first use (empty if its key cannot be read; verification then reports why).
    public var jwks: Data {
      get { (try? keySetData()) ?? Data() }
      set {
        storedJWKS = newValue
        embedded = nil
      }
    }
    private var storedJWKS: Data
    /// The embedded IdP whose key set this is, asked for it when first needed.
    var embedded: EmbeddedIdentityProvider?

    /// The key set, from the embedded IdP when there is one.
    func keySetData() throws -> Data {
      if let embedded { return try embedded.jwks }
      return storedJWKS
    }
    /// Where the IdP publishes its keys. When set, a token signed with a key that ``jwks`` does
    /// not have makes the backend fetch the current set (at most once per 30 s), so a key
    /// rotation is picked up without a restart.
    public var jwksURI: URL?
    /// Where an access token is exchanged for the user's claims, for credentials without an ID
    /// token.
    public var userinfoEndpoint: URL?
    /// Token introspection (RFC 7662). A credential that carries only an access token is
    /// accepted only when introspection says the token is active and was issued to one of
    /// ``audiences``: userinfo alone would accept a token some other app obtained for the same
    /// user (token substitution). Without it, such credentials are refused; send the ID token.
    public var introspectionEndpoint: URL?

    public init(
      issuer: String, audiences: Set<String>, jwks: Data, jwksURI: URL? = nil, userinfoEndpoint: URL? = nil,
      introspectionEndpoint: URL? = nil
    ) {
      self.jwksURI = jwksURI
      self.issuer = issuer
      self.audiences = audiences
      self.storedJWKS = jwks
      self.userinfoEndpoint = userinfoEndpoint
      self.introspectionEndpoint = introspectionEndpoint
    }

    /// Trust in a real OpenID issuer: its discovery document and current JWK Set are fetched
    /// now, and its ID tokens must name one of `clientIDs` in `aud`.
    ///
    /// - Throws: `AuthError/Code/misconfigured` when discovery fails, or transport errors.
    public static func discover(
      issuer: String, clientIDs: Set<String>, transport: any HTTPTransport = URLSessionTransport()
    ) async throws -> IdentityProviderTrust {
      let metadata = try await OIDCProviderMetadata.discover(issuer: issuer, transport: transport)
      let response = try await transport.send(HTTPRequest(method: "GET", url: metadata.jwksURI))
      guard response.status == 200 else {
        throw AuthError(
          .misconfigured,
          "The keys of \(issuer) could not be fetched from \(metadata.jwksURI) (HTTP \(response.status)).")
      }
      return IdentityProviderTrust(
        issuer: metadata.issuer, audiences: clientIDs, jwks: response.body, jwksURI: metadata.jwksURI,
        userinfoEndpoint: metadata.userinfoEndpoint,
        introspectionEndpoint: metadata.introspectionEndpoint)
    }
  }

  public nonisolated let configuration: Configuration
  /// The tenant whose users this backend keeps (``Configuration/tenantID``).
  public nonisolated var tenantID: String? { configuration.tenantID }
  /// The data directory, or `nil` for an in-memory backend.
  public nonisolated let directory: URL?
  /// The backend's wall clock, which never runs backwards; what the server beside it dates with.
  package nonisolated let now: @Sendable () -> Date
  /// Read from `signing-key.pem` (or generated) when the first token is signed or verified;
  /// the file's shape is checked at open.
  let signing: LazySigningKey
  /// The `kid` of the signing key: the first 16 hex digits of the SHA-256 of its public key.
  /// Empty if the key cannot be loaded (the first token then reports why).
  public nonisolated var keyID: String { (try? signing.get().keyID) ?? "" }
  /// Accounts, tokens, codes and mail, in SQLite.
  let store: EmbeddedStore
  /// The store's connection, which this backend's tenants share.
  nonisolated let connection: SharedSQLiteDatabase
  /// Where this backend's project sits in the database: `''` for the project it was opened as,
  /// `ID/` for another (``project(_:)``); its rows name it before their tenant.
  nonisolated let projectScope: String
  /// Whether email enumeration protection is on: ``Configuration/emailEnumerationProtection``
  /// at start, then as ``setEmailEnumerationProtection(_:)`` sets it.
  public internal(set) var emailEnumerationProtection: Bool
  /// The trusted IdPs' key sets, by issuer: seeded from the configuration, refetched from each
  /// IdP's `jwksURI` when a token names a key the set lacks.
  let identityKeys: JSONWebKeySetCache
  /// What opening the data folder found wrong and repaired, each in words that say what to do:
  /// a stored value out of range (written by an older version) is brought into range rather
  /// than trapped on later; a damaged write-ahead log, whose unreadable transactions are named
  /// and whose copy is kept. Empty for a sound folder, for a tenant's or another project's
  /// backend (their project's has them), and until the database opens for a backend that opens
  /// it on first use; `signin` prints these when it opens.
  public nonisolated var storageWarnings: [String] { ownsDatabase ? connection.warnings : [] }
  /// Whether this backend opened the database, rather than sharing its project's.
  private nonisolated let ownsDatabase: Bool
  /// The client of this project without its transport, which ``client`` adds for each call.
  nonisolated let clientShape: FirebaseBackend

  /// Opens (or creates) the backend in `directory`, or in memory when `nil`.
  ///
  /// - Throws: `AuthError` with code `AuthError/Code/storage` when the directory or its files
  ///   cannot be read or written, the database is damaged or from a newer version; the message
  ///   says which file and what to do, and nothing is changed.
  public init(
    directory: URL?, configuration: Configuration = Configuration(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws {
    try self.init(directory: directory, configuration: configuration, now: now, sharedKey: nil)
  }

  /// Opens the backend in `directory` as ``init(directory:configuration:now:)`` does, but its
  /// database at the first call that reads or writes it, so a program that may never touch its
  /// accounts (`signin -c quit`) pays nothing for them at launch. The folder and the signing
  /// key's file are still checked now. ``storageWarnings`` go to `report` when the database
  /// opens, if there are any.
  ///
  /// - Throws: `AuthError/Code/storage` for a folder or key file that cannot be used; a
  ///   database that cannot be opened fails the call that first needs it, with the same words
  ///   the eager initializer would have thrown, and the next call tries again.
  package init(
    directory: URL, configuration: Configuration, opensDatabaseOnFirstUse report: @escaping @Sendable ([String]) -> Void
  ) throws {
    try self.init(
      directory: directory, configuration: configuration, now: { Date() }, sharedKey: nil,
      opening: .onFirstUse(report: report))
  }

  /// Another project beside this one, as `signin serve` makes one on first use: its rows in
  /// this backend's database (each naming it, as a tenant's do), so a project opens no file and
  /// holds no descriptor of its own; this backend's configuration under `projectID`, its clock,
  /// and its signing key, so that one key set verifies the tokens of every project.
  package nonisolated func project(_ projectID: String) throws -> EmbeddedBackend {
    var configuration = configuration
    configuration.projectID = projectID
    configuration.tenantID = nil
    return try EmbeddedBackend(
      directory: directory, configuration: configuration, now: now, sharedKey: signing,
      sharing: (connection, Self.scope(ofProject: projectID)))
  }

  /// The rows of another project's own users name it as `ID/`; its tenants' as `ID/TENANT`. This
  /// project's rows name no project: `''`, and a tenant's its id. Project and tenant ids have no
  /// `/`, so no two scopes meet.
  static func scope(ofProject projectID: String) -> String { projectID + "/" }

  /// A project beside this one that is not kept: in memory, empty, for a call that must make
  /// nothing (a `GET`), with this backend's configuration under `projectID` and its key.
  package nonisolated func sibling(
    projectID: String, tenantID: String? = nil, directory: URL?
  ) throws -> EmbeddedBackend {
    var configuration = configuration
    configuration.projectID = projectID
    configuration.tenantID = tenantID
    return try EmbeddedBackend(directory: directory, configuration: configuration, now: now, sharedKey: signing)
  }

  /// The users of the Identity Platform tenant `tenantID` of this project: their rows in this
  /// backend's own database (its file, or its in-memory database), each naming the tenant, so a
  /// tenant opens no file of its own; tokens are signed with this backend's key. `signin serve`
  /// and `signin --tenant` keep a tenant there.
  package nonisolated func tenant(_ tenantID: String?) throws -> EmbeddedBackend {
    var configuration = configuration
    configuration.tenantID = tenantID
    return try EmbeddedBackend(
      directory: directory, configuration: configuration, now: now, sharedKey: signing,
      sharing: (connection, projectScope))
  }

  /// This project's tenant `tenantID`, or its own users for `nil`, in the same
  /// database.
  public nonisolated func forTenant(_ tenantID: String?) throws -> any AuthBackend {
    try tenant(tenantID)
  }

  private init(
    directory: URL?, configuration: Configuration, now: @escaping @Sendable () -> Date, sharedKey: LazySigningKey?,
    sharing project: (connection: SharedSQLiteDatabase, projectScope: String)? = nil,
    opening: SharedSQLiteDatabase.Opening = .now
  ) throws {
    self.directory = directory
    self.configuration = configuration
    projectScope = project?.projectScope ?? ""
    emailEnumerationProtection = configuration.emailEnumerationProtection
    // The backend's clock never runs backwards. A wall clock that steps back a fraction of a
    // millisecond across a second boundary (seen on a loaded machine) would otherwise mint a
    // token dated before the account's own validSince: revoked the moment it is issued.
    let latest = Locked(Date.distantPast)
    self.now = {
      let reading = now()
      return latest.withLock { latest in
        latest = max(latest, reading)
        return latest
      }
    }
    identityKeys = Self.identityKeyCache(configuration, now: self.now)
    if let project, let sharedKey {
      signing = sharedKey
      store = EmbeddedStore(sharing: project.connection, tenant: project.projectScope + (configuration.tenantID ?? ""))
      ownsDatabase = false
    } else if let directory {
      try AuthError.storage { () throws(FileError) in try PrivateFolder.create(at: directory) }
      signing =
        sharedKey ?? LazySigningKey(file: directory.appendingFileName("signing-key.pem"), keyID: Self.keyID)
      try signing.checkFile()
      store = try EmbeddedStore(
        .file(directory.appendingFileName(EmbeddedStore.fileName)), busyTimeout: configuration.busyTimeout,
        opening: opening)
      ownsDatabase = true
    } else {
      ownsDatabase = true
      signing =
        sharedKey ?? configuration.signingKey.map { LazySigningKey(key: $0, keyID: Self.keyID) }
        ?? LazySigningKey(file: nil, keyID: Self.keyID)
      store = try EmbeddedStore(.memory)
    }
    connection = store.connection
    var clientShape = try FirebaseBackend(apiKey: "in-process", projectID: configuration.projectID, environment: [:])
    clientShape.recaptcha = configuration.recaptcha
    self.clientShape = clientShape
  }

  @Sendable private static func keyID(_ publicKey: RSAPublicKey) -> String {
    String(Crypto.sha256Hex(publicKey.der).prefix(16))
  }

  /// Closes the database. Other backends and processes on the same directory are not affected;
  /// after `close()`, this one's calls throw `AuthError/Code/storage`.
  public func close() {
    store.close()
  }

  private static func identityKeyCache(_ configuration: Configuration, now: @escaping @Sendable () -> Date)
    -> JSONWebKeySetCache
  {
    let trusts = configuration.identityProviders.values
    let transport = configuration.transport
    @Sendable func trust(_ issuer: String) -> IdentityProviderTrust? { trusts.first { $0.issuer == issuer } }
    return JSONWebKeySetCache(
      now: now,
      seed: { issuer in try trust(issuer).map { try JSONWebKeySet(json: $0.keySetData()) } },
      fetch: { issuer in
        guard let trust = trust(issuer) else { return JSONWebKeySet(keys: []) }
        guard let uri = trust.jwksURI else { return try JSONWebKeySet(json: trust.keySetData()) }
        return try await JSONWebKeySet.fetch(from: uri, of: issuer, transport: transport)
      })
  }

  // MARK: - Published keys

  /// The public signing keys as a JWK Set (`{"keys":[…]}`), the way an issuer publishes them.
  public var jwks: Data {
    get throws {
      let signing = try signing.get()
      return try JSONWebKeySet(keys: [.init(kid: signing.keyID, publicKey: signing.publicKey)]).json()
    }
  }

  /// The public signing keys as `{kid: PEM certificate}`: self-signed X.509 certificates over
  /// the signing key, valid for 30 days from now, the shape Google publishes for Firebase, so
  /// certificate-based ID-token verifiers (firebase-admin) accept issued tokens.
  public var publicCertificates: [String: String] {
    get throws {
      [
        keyID: try SelfSignedCertificate.pem(
          for: try signing.get().key, commonName: "securetoken.system.gserviceaccount.com", notBefore: now(),
          lifetime: 30 * 24 * 3600)
      ]
    }
  }

  /// The `iss` of issued ID tokens: `https://securetoken.google.com/<projectID>`.
  public nonisolated var issuer: String { configuration.issuer }

  /// The backend's tokens, minted, signed and checked with its key and configuration.
  package var tokens: TokenIssuer {
    TokenIssuer(store: store, signing: signing, configuration: configuration, now: now)
  }

  /// The wrong passwords and codes counted against a sign-in.
  var throttle: LoginThrottle { LoginThrottle(store: store, configuration: configuration, now: now) }

  /// An administrator's calls on this backend's accounts.
  var administration: AccountAdministration {
    AccountAdministration(store: store, configuration: configuration, now: now, tokens: tokens)
  }

  /// The codes sent by email, and the messages that carry them.
  package var mail: ActionCodeMail {
    ActionCodeMail(
      store: store, configuration: configuration, now: now, tokens: tokens, steps: steps, throttle: throttle,
      administration: administration, emailEnumerationProtection: emailEnumerationProtection)
  }

  /// Email-and-password accounts, and a signed-in user's calls on the account.
  package var accounts: PasswordAccounts {
    PasswordAccounts(
      store: store, configuration: configuration, now: now, tokens: tokens, steps: steps, throttle: throttle,
      administration: administration, mail: mail, emailEnumerationProtection: emailEnumerationProtection)
  }

  /// TOTP and SMS second factors.
  package var secondFactors: SecondFactors {
    SecondFactors(
      store: store, configuration: configuration, now: now, tokens: tokens, steps: steps, throttle: throttle,
      administration: administration, phone: phone)
  }

  /// Sign-in with a custom token.
  package var customTokens: CustomTokenSignIn {
    CustomTokenSignIn(store: store, configuration: configuration, now: now, tokens: tokens)
  }

  /// The codes texted to phone numbers.
  package var phone: PhoneCodes {
    PhoneCodes(
      store: store, configuration: configuration, now: now, tokens: tokens, steps: steps, mail: mail,
      throttle: throttle, administration: administration)
  }

  /// Runs `body` on this backend's actor: the service's way into a family of calls that waits
  /// (a code to deliver) and so cannot be handed over as a synchronous closure.
  package func run<T: Sendable>(_ body: @Sendable (isolated EmbeddedBackend) async throws -> T) async throws -> T {
    try await body(self)
  }

  /// Who identity providers say their users are.
  package var identities: IdentityProviderSignIn {
    IdentityProviderSignIn(
      store: store, configuration: configuration, now: now, identityKeys: identityKeys, steps: steps, tokens: tokens)
  }

  /// How a first factor ends, and the steps a sign-in waits on.
  var steps: SignInSteps {
    SignInSteps(store: store, configuration: configuration, now: now, tokens: tokens, throttle: throttle)
  }

  /// Passkey enrollment and sign-in.
  package var passkeys: PasskeyCeremonies {
    PasskeyCeremonies(store: store, configuration: configuration, now: now, tokens: tokens, steps: steps)
  }

  /// Runs `body` with the passkey ceremonies of this backend: challenges, and the answers to them.
  package func passkeyCeremony<T: Sendable>(_ body: @Sendable (PasskeyCeremonies) throws -> T) throws -> T {
    try body(passkeys)
  }

  /// Runs `body` with an administrator's calls on this backend's accounts (the Admin SDKs' and
  /// the emulator's): create, look up, update, list, session cookies.
  package func administering<T: Sendable>(_ body: @Sendable (AccountAdministration) throws -> T) throws -> T {
    try body(administration)
  }

  /// How many wrong passwords or codes throttle `key` (an email, `phone:NUMBER`) has counted in
  /// the current window.
  package func recentLoginFailures(for key: String) throws -> Int {
    try throttle.recentLoginFailures(for: key)
  }
}
