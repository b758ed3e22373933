import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// A project's accounts and settings in the Firebase Auth emulator's export format, which
/// `firebase emulators:start --import DIR --export-on-exit DIR` reads and writes:
/// `DIR/auth_export/accounts.json` (an `accounts:batchGet` reply: `{"kind": …, "users": […]}`),
/// `DIR/auth_export/config.json` (`signIn`, `emailPrivacyConfig`) and
/// `DIR/firebase-export-metadata.json`. `signin serve --import` and `--export-on-exit` use it,
/// so a team's seed data moves between the two unchanged.
///
/// Passwords: the emulator writes each as `fakeHash:salt=S:password=P` (the password in
/// clear); an import hashes it here. An export writes this backend's own hash as
/// `signinkitHash:…`, which only `signin serve` reads back: the password itself is not kept
/// anywhere to write.
///
/// - Concurrency: stateless; each call awaits the backend's actor.
package enum EmulatorExport {
  /// The folder of the auth files under an export's root.
  package static let folder = "auth_export"

  /// Writes `backend`'s accounts and settings under `root`, replacing an earlier export there.
  ///
  /// - Returns: how many accounts were written.
  /// - Throws: `AuthError` (`storage`) naming the file that could not be written.
  @discardableResult
  package static func write(_ backend: EmbeddedBackend, to root: URL) async throws -> Int {
    let accounts = try await exported(backend)
    // Each tenant's accounts in a file of its own, as the emulator's export writes them.
    let tenants = ServiceTenants(project: backend)
    var tenantFiles: [(name: String, accounts: LookupReply)] = []
    for tenant in try await tenants.all() {
      guard let id = tenant.tenantId else { continue }
      let tenantBackend = try await tenants.backend(for: id, creating: false, knownToExist: true)
      tenantFiles.append(("accounts-\(id).json", try await exported(tenantBackend)))
    }
    let enumerationProtection = await backend.emailEnumerationProtection
    let config: JSONValue = .object([
      "signIn": .object(["allowDuplicateEmails": .bool(false)]),
      "emailPrivacyConfig": .object(["enableImprovedEmailPrivacy": .bool(enumerationProtection)]),
    ])
    let metadata: JSONValue = .object([
      "version": .string("signinkit"), "auth": .object(["version": .string("signinkit"), "path": .string(folder)]),
    ])
    let auth = root.appendingPathComponent(folder)
    do {
      try FileManager.default.createDirectory(at: auth, withIntermediateDirectories: true)
      try AtomicFile.write(try SortedJSON.data(accounts), to: auth.appendingPathComponent("accounts.json"))
      for file in tenantFiles {
        try AtomicFile.write(try SortedJSON.data(file.accounts), to: auth.appendingPathComponent(file.name))
      }
      try AtomicFile.write(try SortedJSON.data(config), to: auth.appendingPathComponent("config.json"))
      try AtomicFile.write(
        try SortedJSON.data(metadata), to: root.appendingPathComponent("firebase-export-metadata.json"))
    } catch {
      throw AuthError(.storage, "The export to \(root.path) could not be written (\(error)). Check the folder.")
    }
    return (accounts.users?.count ?? 0) + tenantFiles.reduce(0) { $0 + ($1.accounts.users?.count ?? 0) }
  }

  /// `backend`'s accounts as an export holds them: this backend's own password hashes, and each
  /// SMS second factor's whole number, as the emulator keeps it.
  private static func exported(_ backend: EmbeddedBackend) async throws -> LookupReply {
    var reply = LookupReply()
    reply.kind = "identitytoolkit#DownloadAccountResponse"
    reply.users = try await AdministrationEndpoints.allAccounts(of: backend).map { account in
      var record = ReplyShapes.adminAccount(account, of: backend)
      record.passwordHash = account.password.flatMap(ownHash)
      // A TOTP factor has no place in the format (the emulator's import refuses any but SMS).
      let phones = (account.secondFactors ?? []).filter { $0.phoneNumber != nil }
      record.mfaInfo =
        phones.isEmpty
        ? nil
        : phones.map { factor in
          var entry = MFAEnrollment()
          entry.mfaEnrollmentId = factor.enrollmentID
          entry.displayName = factor.displayName
          entry.enrolledAt = factor.enrolledAt.formatted(.iso8601)
          entry.phoneInfo = factor.phoneNumber
          entry.unobfuscatedPhoneInfo = factor.phoneNumber
          return entry
        }
      return record
    }
    return reply
  }

  /// Imports the accounts and settings of the export at `root` (its root, its `auth_export`
  /// folder, or a folder with `accounts.json`) into `backend`, and each tenant's
  /// `accounts-TENANT.json` into that tenant (made, every sign-in method on, when it is new, as
  /// the emulator makes a tenant a call names). An account whose uid is taken replaces it, as an
  /// import into a fresh emulator would hold it.
  ///
  /// - Returns: how many accounts were imported, and each refusal by its file and its index there.
  /// - Throws: `AuthError` (`misconfigured`) when there is no `accounts.json` or a file is not the
  ///   export's shape.
  package static func read(from root: URL, into backend: EmbeddedBackend) async throws -> (
    imported: Int, refusals: [(file: String, index: Int, message: String)]
  ) {
    let auth =
      [root.appendingPathComponent(folder), root].first {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("accounts.json").path)
      }
    guard let auth else {
      throw AuthError(
        .misconfigured,
        "No accounts.json in \(root.path) or its \(folder) folder: give --import the folder an export was written to.")
    }
    if let config = try? Data(contentsOf: auth.appendingPathComponent("config.json")),
      let privacy = (try? JSONDecoder().decode(JSONValue.self, from: config))?.object?["emailPrivacyConfig"]?.object,
      case .bool(let on)? = privacy["enableImprovedEmailPrivacy"]
    {
      await backend.setEmailEnumerationProtection(on)
    }
    var (imported, refusals) = try await importAccounts(auth.appendingPathComponent("accounts.json"), into: backend)
    let tenants = ServiceTenants(project: backend)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: auth.path)) ?? []
    for name in files.sorted() where name.hasPrefix("accounts-") && name.hasSuffix(".json") {
      let id = String(name.dropFirst("accounts-".count).dropLast(".json".count))
      let tenant: EmbeddedBackend
      do {
        tenant = try await tenants.backend(for: id)
      } catch {
        throw AuthError(
          .misconfigured, "\(name) names tenant '\(id)', which cannot be made: \(AuthError.wrapping(error).message)")
      }
      let (count, more) = try await importAccounts(auth.appendingPathComponent(name), into: tenant)
      imported += count
      refusals += more
    }
    return (imported, refusals)
  }

  /// Imports one `accounts.json`-shaped file into `backend`.
  private static func importAccounts(_ file: URL, into backend: EmbeddedBackend) async throws -> (
    imported: Int, refusals: [(file: String, index: Int, message: String)]
  ) {
    let upload: UploadAccountBody
    do {
      upload = try JSONDecoder().decode(UploadAccountBody.self, from: try Data(contentsOf: file))
    } catch {
      throw AuthError(
        .misconfigured, "\(file.path) is not an emulator export's accounts file ({\"users\": […]}): \(error)")
    }
    let users = upload.users ?? []
    let hashing = try PasswordImport(upload)
    var accounts: [ImportedAccount] = []
    var refusals: [(index: Int, message: String)] = []
    var indices: [Int] = []
    for (index, user) in users.enumerated() {
      do {
        accounts.append(try hashing.account(user))
        indices.append(index)
      } catch {
        refusals.append((index, AuthError.wrapping(error).firebaseFailure?.message ?? "\(error)"))
      }
    }
    let stored = try await backend.adminImport(accounts, allowOverwrite: true)
    refusals += stored.map { (indices[$0.index], $0.message) }
    let name = file.lastPathComponent
    return (users.count - refusals.count, refusals.sorted { $0.index < $1.index }.map { (name, $0.index, $0.message) })
  }

  /// The prefix of this backend's own hash in an export.
  static let ownPrefix = "signinkitHash:"
  /// The prefix of the Firebase emulator's stand-in hash.
  static let emulatorPrefix = "fakeHash:"

  /// `hash` as an export writes it.
  static func ownHash(_ hash: PasswordHash) -> String? {
    (try? JSONEncoder().encode(hash)).map { ownPrefix + Base64URL.encode(Array($0)) }
  }
}
