import Foundation
import SignInKit
import SignInStorage

/// The `tenants/ID/` and `projects/ID/` folders in which earlier versions kept each tenant's
/// accounts, and each other project `signin serve` made, in a database of its own, and their
/// one-time move into the project's database, where every row names its scope (a tenant's id;
/// another project's `ID/` before its tenant's).
///
/// Each folder's database is first brought up to date on its own (with any JSON files and
/// tenant folders older versions left in it), then copied in one transaction, and the folder
/// renamed aside (`ID.imported`, never deleted). A failure leaves the folder where it was; rows
/// already in the project's database are kept, so an import cut short and run again adds nothing
/// twice.
///
/// - Concurrency: `Sendable` value.
struct LegacyTenantFolders: Sendable {
  let directory: URL

  /// Moves every tenant folder under `tenants/`, then every project folder under `projects/`,
  /// into `store` (the project's). Returns what to tell the user.
  ///
  /// - Throws: `AuthError/Code/storage` when a folder's database cannot be read; that folder and
  ///   the ones after it stay where they are.
  func importOnce(into store: EmbeddedStore) throws -> [String] {
    try importOnce("tenants", as: "tenant", scope: { $0 }, into: store)
      + importOnce("projects", as: "project", scope: EmbeddedBackend.scope(ofProject:), into: store)
  }

  private func importOnce(
    _ subfolder: String, as kind: String, scope: (String) -> String, into store: EmbeddedStore
  ) throws -> [String] {
    let parent = directory.appendingPathComponent(subfolder, isDirectory: true)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
    var told: [String] = []
    for name in names.sorted() where !name.hasSuffix(".imported") && !name.hasPrefix(".") {
      let folder = parent.appendingPathComponent(name, isDirectory: true)
      let file = folder.appendingPathComponent(EmbeddedStore.fileName)
      let json = folder.appendingPathComponent("accounts.json")
      guard
        FileManager.default.fileExists(atPath: file.path) || FileManager.default.fileExists(atPath: json.path)
      else { continue }
      let old = try EmbeddedStore(.file(file), busyTimeout: store.connection.busyTimeout)
      var warnings: [String]
      do {
        warnings =
          try LegacyAccountsFile(directory: folder).importOnce(into: old)
          + LegacySettingsFiles(directory: folder).importOnce(into: old)
          + (kind == "project" ? LegacyTenantFolders(directory: folder).importOnce(into: old) : [])
      } catch {
        old.close()
        throw error
      }
      old.close()
      guard let moved = try copy(file, as: scope(name), into: store) else { continue }
      warnings.append(
        "Moved \(kind) \(name)'s \(moved) accounts into \(EmbeddedStore.fileName); its old folder is now "
          + "\(subfolder)/\(name).imported.")
      told += warnings
    }
    return told
  }

  /// Copies the database `file` into `store` as the rows of scope `tenant` and renames its
  /// folder aside, in one transaction. Returns how many accounts it held, or `nil` when another
  /// process moved it first.
  private func copy(_ file: URL, as tenant: String, into store: EmbeddedStore) throws -> Int? {
    let folder = file.deletingLastPathComponent()
    let aside = folder.deletingLastPathComponent().appendingPathComponent(
      folder.lastPathComponent + ".imported", isDirectory: true)
    let scope: [String: SQLiteValue] = [":tenant": .text(tenant)]
    return try EmbeddedStore.reportingStorage {
      try store.connection.use { database -> Int? in
        // Another process may have moved the folder since it was listed.
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        try database.run("ATTACH DATABASE ? AS legacy", [.text(file.path)])
        defer { try? database.execute("DETACH DATABASE legacy") }
        var movedTo: URL?
        do {
          return try database.transaction { () throws -> Int? in
            guard FileManager.default.fileExists(atPath: folder.path) else { return nil }
            for statement in Self.copies { try database.run(statement, named: scope) }
            let count = try database.rows("SELECT count(*) FROM legacy.accounts").first?.integer(0) ?? 0
            if FileManager.default.fileExists(atPath: aside.path) {
              throw AuthError(
                .storage,
                "\(folder.path) holds tenant \(tenant)'s accounts, but \(aside.path) is in the way of moving it "
                  + "aside; nothing was moved. Move one of them away, then start again.")
            }
            do {
              try FileManager.default.moveItem(at: folder, to: aside)
            } catch {
              throw AuthError(
                .storage,
                "\(folder.path) was read but could not be renamed to \(aside.lastPathComponent) "
                  + "(\(error.localizedDescription)); nothing was moved. Check the folder is writable.")
            }
            movedTo = aside
            return Int(count)
          }
        } catch {
          if let movedTo { try? FileManager.default.moveItem(at: movedTo, to: folder) }
          throw error
        }
      }
    }
  }

  /// Every table's rows, each scope put after `:tenant` (a tenant folder's rows are all `''`, a
  /// project folder's its own and its tenants'); what is there already is kept.
  private static let copies = [
    "INSERT OR IGNORE INTO main.accounts (tenant, uid, email, phone, record) "
      + "SELECT :tenant || tenant, uid, email, phone, record FROM legacy.accounts",
    "INSERT OR IGNORE INTO main.provider_links (tenant, provider, raw_id, uid, email) "
      + "SELECT :tenant || tenant, provider, raw_id, uid, email FROM legacy.provider_links",
    "INSERT OR IGNORE INTO main.passkeys (tenant, credential_id, uid, sign_count, last_used_at) "
      + "SELECT :tenant || tenant, credential_id, uid, sign_count, last_used_at FROM legacy.passkeys",
    "INSERT OR IGNORE INTO main.refresh_tokens (digest, tenant, uid, record) "
      + "SELECT digest, :tenant || tenant, uid, record FROM legacy.refresh_tokens",
    "INSERT OR IGNORE INTO main.action_codes (digest, tenant, uid, kind, email, expires_at, record) "
      + "SELECT digest, :tenant || tenant, uid, kind, email, expires_at, record FROM legacy.action_codes "
      + "ORDER BY id",
    "INSERT INTO main.mail (tenant, code_digest, recipient, record) "
      + "SELECT :tenant || m.tenant, code_digest, recipient, record FROM legacy.mail m WHERE NOT EXISTS "
      + "(SELECT 1 FROM main.mail k WHERE k.code_digest = m.code_digest AND k.record = m.record) ORDER BY id",
    "INSERT OR IGNORE INTO main.used_provider_codes (tenant, digest, expires_at) "
      + "SELECT :tenant || tenant, digest, expires_at FROM legacy.used_provider_codes",
    "INSERT OR IGNORE INTO main.pending_second_factors (tenant, kind, key, uid, expires_at, record) "
      + "SELECT :tenant || tenant, kind, key, uid, expires_at, record FROM legacy.pending_second_factors "
      + "ORDER BY id",
    "INSERT INTO main.login_failures (tenant, key, at) "
      + "SELECT :tenant || f.tenant, key, at FROM legacy.login_failures f WHERE NOT EXISTS "
      + "(SELECT 1 FROM main.login_failures k WHERE k.tenant = :tenant || f.tenant AND k.key = f.key AND k.at = f.at) ORDER BY id",
    "INSERT OR IGNORE INTO main.settings (tenant, kind, key, value) "
      + "SELECT :tenant || tenant, kind, key, value FROM legacy.settings",
  ]
}
