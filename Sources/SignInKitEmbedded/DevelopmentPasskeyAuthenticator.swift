import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit

/// A software passkey authenticator for development: Linux, tests, the `signin` REPL. It makes
/// P-256 passkeys and signs with them as a platform authenticator would, keeping their private
/// keys in `passkeys.json` in its folder (owner-only), or in memory.
///
/// It is plainly not a secure authenticator: its keys are files, and it "verifies" the person
/// by being asked to. Use it to develop and test passkey flows without a device; on Apple
/// platforms ship SignInKit's `PlatformPasskeyAuthenticator`.
///
/// - Concurrency: actor; each ceremony reads and writes its credentials on the actor, so the
///   signature counter goes up once per assertion however many run at once.
public actor DevelopmentPasskeyAuthenticator: PasskeyAuthenticator {
  /// The attestation a registration carries.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Attestation: Sendable, Equatable {
    /// `none`: what browsers and platforms send when the relying party does not ask.
    case none
    /// `packed` self-attestation: the new credential signs its own registration.
    case packedSelf
  }

  /// One passkey it holds.
  ///
  /// - Concurrency: `Sendable` value; its description leaves the key out.
  public struct Credential: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The credential id, base64url.
    public var id: String
    public var relyingPartyID: String
    /// The user handle the relying party gave, base64url.
    public var userHandle: String
    public var userName: String
    public var createdAt: Date
    public var signCount: UInt32
    /// The private key, PKCS#8 DER, base64url.
    var privateKey: String

    public var description: String { "passkey \(id) for \(userName) at \(relyingPartyID)" }
  }

  /// Where the credentials live; `nil` keeps them in memory.
  public nonisolated let file: URL?
  /// The origin its client data names: by default `https://RP_ID` (`http://localhost` for
  /// `localhost`). A relying party id this origin's host does not end with is refused, as a
  /// browser refuses it.
  public nonisolated let origin: String?
  /// Whether it reports that it verified the person (UV), as a platform authenticator with
  /// Face ID does.
  public nonisolated let verifiesUser: Bool
  /// Whether it reports a person present (UP). Always, but for tests of a relying party that
  /// must refuse a response without it.
  public nonisolated let reportsPresence: Bool
  public nonisolated let attestation: Attestation
  private let now: @Sendable () -> Date
  private let choose: @Sendable ([Credential]) async throws -> Credential
  private var credentials: [Credential]

  /// - Parameters:
  ///   - directory: the folder for `passkeys.json` (made owner-only); `nil` keeps the keys in
  ///     memory.
  ///   - origin: the origin its client data names (``origin``).
  ///   - verifiesUser: whether it reports user verification (``verifiesUser``).
  ///   - reportsPresence: whether it reports a person present (``reportsPresence``).
  ///   - attestation: what its registrations carry.
  ///   - now: the wall clock, for the passkeys' creation dates.
  ///   - choose: which of several passkeys for a relying party answers a sign-in that allows
  ///     any (a discoverable sign-in); by default the newest. Throw `AuthError` with code
  ///     `userCancelled` to decline, as a person closing the sheet.
  /// - Throws: `AuthError` with code `storage` when the folder or file cannot be read.
  public init(
    directory: URL?, origin: String? = nil, verifiesUser: Bool = true, reportsPresence: Bool = true,
    attestation: Attestation = .none, now: @escaping @Sendable () -> Date = { Date() },
    choose: @escaping @Sendable ([Credential]) async throws -> Credential = { candidates in candidates.last! }
  ) throws {
    file = directory?.appendingPathComponent("passkeys.json")
    self.origin = origin
    self.verifiesUser = verifiesUser
    self.reportsPresence = reportsPresence
    self.attestation = attestation
    self.now = now
    self.choose = choose
    credentials = []
    if let directory, let file {
      try AuthError.storage { () throws(FileError) in try PrivateFolder.create(at: directory) }
      if let data = FileManager.default.contents(atPath: file.path) {
        do {
          let decoder = JSONDecoder()
          decoder.dateDecodingStrategy = .iso8601
          credentials = try decoder.decode([Credential].self, from: data)
        } catch {
          throw AuthError(
            .storage, "\(file.path) is not a development authenticator's passkeys file; move it away to start afresh.")
        }
      }
    }
  }

  /// The passkeys it holds, oldest first; for one relying party when given.
  public func passkeys(for relyingPartyID: String? = nil) -> [Credential] {
    credentials.filter { relyingPartyID == nil || $0.relyingPartyID == relyingPartyID }
  }

  /// Forgets the passkey `id` (base64url), as deleting it from a device does.
  public func forget(_ id: String) throws {
    credentials.removeAll { $0.id == id }
    try save()
  }

  // MARK: - PasskeyAuthenticator

  public func register(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistration {
    let origin = try origin(for: request.relyingPartyID)
    guard request.algorithms.contains(-7) else {
      throw AuthError(
        .passkeyRefused, "The relying party does not take ES256 keys, the only kind this authenticator makes.")
    }
    let excluded = Set(request.excludedCredentialIDs.map { Base64URL.encode(Array($0)) })
    if credentials.contains(where: { excluded.contains($0.id) }) {
      throw AuthError(.passkeyRefused, "This authenticator already holds a passkey for this account.")
    }
    let key = try P256PrivateKey.generate()
    let id = try Crypto.randomBytes(16)
    let clientData = CollectedClientData(type: "webauthn.create", challenge: Array(request.challenge), origin: origin)
    let authenticatorData = try AuthenticatorData(
      rpIDHash: Crypto.sha256(Array(request.relyingPartyID.utf8)), flags: flags, signCount: 0,
      credential: (aaguid: [UInt8](repeating: 0, count: 16), id: id, key: .es256(try key.publicKey)))
    let statement: CBOR
    switch attestation {
    case .none: statement = .map([])
    case .packedSelf:
      let signature = try key.signES256(authenticatorData.bytes + Crypto.sha256(clientData.json))
      statement = .map([.init(.text("alg"), .int(-7)), .init(.text("sig"), .bytes(signature))])
    }
    let object = CBOR.map([
      .init(.text("fmt"), .text(attestation == .none ? "none" : "packed")), .init(.text("attStmt"), statement),
      .init(.text("authData"), .bytes(authenticatorData.bytes)),
    ])
    credentials.append(
      Credential(
        id: Base64URL.encode(id), relyingPartyID: request.relyingPartyID,
        userHandle: Base64URL.encode(Array(request.userID)), userName: request.userName, createdAt: now(),
        signCount: 0, privateKey: Base64URL.encode(key.der)))
    try save()
    return PasskeyRegistration(
      credentialID: Data(id), clientDataJSON: Data(clientData.json), attestationObject: Data(object.encoded),
      transports: ["internal"])
  }

  public func authenticate(_ request: PasskeyAssertionRequest) async throws -> PasskeyAssertion {
    try await authenticate(request, verifyingUser: verifiesUser)
  }

  /// Answers `request` as ``authenticate(_:)`` does, reporting user verification only when
  /// `verifyingUser` (a security key without a PIN reports presence alone).
  public func authenticate(
    _ request: PasskeyAssertionRequest, verifyingUser: Bool
  ) async throws -> PasskeyAssertion {
    let origin = try origin(for: request.relyingPartyID)
    let allowed = Set(request.allowedCredentialIDs.map { Base64URL.encode(Array($0)) })
    let candidates = credentials.filter {
      $0.relyingPartyID == request.relyingPartyID && (allowed.isEmpty || allowed.contains($0.id))
    }
    guard !candidates.isEmpty else {
      throw AuthError(
        .noPasskey, "This authenticator holds no passkey for \(request.relyingPartyID); enrol one first.")
    }
    let chosen = try await choose(candidates)
    guard let index = credentials.firstIndex(where: { $0.id == chosen.id }) else {
      throw AuthError(.noPasskey, "The chosen passkey is no longer on this authenticator.")
    }
    credentials[index].signCount += 1
    let credential = credentials[index]
    try save()
    let key = try P256PrivateKey(der: Base64URL.decode(credential.privateKey) ?? [])
    let clientData = CollectedClientData(type: "webauthn.get", challenge: Array(request.challenge), origin: origin)
    var flags = flags
    if !verifyingUser { flags.remove(.userVerified) }
    let authenticatorData = try AuthenticatorData(
      rpIDHash: Crypto.sha256(Array(request.relyingPartyID.utf8)), flags: flags, signCount: credential.signCount,
      credential: nil)
    let signature = try key.signES256(authenticatorData.bytes + Crypto.sha256(clientData.json))
    return PasskeyAssertion(
      credentialID: Data(Base64URL.decode(credential.id) ?? []), clientDataJSON: Data(clientData.json),
      authenticatorData: Data(authenticatorData.bytes), signature: Data(signature),
      userHandle: Base64URL.decode(credential.userHandle).map { Data($0) })
  }

  /// This authenticator, answering sign-ins with presence only: its passkeys and counters, no
  /// user verification.
  public nonisolated var presenceOnly: PresenceOnlyPasskeyAuthenticator { PresenceOnlyPasskeyAuthenticator(self) }

  // MARK: - Steps

  private var flags: AuthenticatorData.Flags {
    var flags: AuthenticatorData.Flags = []
    if reportsPresence { flags.insert(.userPresent) }
    if verifiesUser { flags.insert(.userVerified) }
    return flags
  }

  /// The origin for a ceremony at `relyingPartyID`, refused as a browser refuses a relying
  /// party id its origin's host is not, or does not end with.
  private func origin(for relyingPartyID: String) throws -> String {
    guard let origin else {
      return relyingPartyID == "localhost" ? "http://localhost" : "https://\(relyingPartyID)"
    }
    let host = URL(string: origin)?.host ?? ""
    guard host == relyingPartyID || host.hasSuffix("." + relyingPartyID) else {
      throw AuthError(
        .relyingPartyMismatch,
        "The page at \(origin) may not use passkeys of \(relyingPartyID); the relying party id must be its "
          + "host or end it.")
    }
    return origin
  }

  private func save() throws {
    guard let file else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let data = try encoder.encode(credentials)
    try AuthError.storage { () throws(FileError) in try AtomicFile.write(data, to: file) }
  }
}
