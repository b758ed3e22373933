import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The Identity Toolkit admin API that the Firebase Admin SDKs call in emulator mode, over an
/// ``EmbeddedBackend``: `/identitytoolkit.googleapis.com/v1/projects/{p}/accounts` (create),
/// `accounts:lookup` (by uid or email), `accounts:update` (profile, `disableUser`,
/// `customAttributes`, `validSince`…), `accounts:delete`, `accounts:batchDelete`,
/// `accounts:batchGet` (list users, paged), `accounts:batchCreate` (import users, one
/// transaction per batch) and `accounts:sendOobCode` with `returnOobLink` (a link to the
/// server's `/emulator/action` page).
///
/// ``FirebaseEmulatorRoutes`` checks the owner credential before it hands a call here.
///
/// - Concurrency: `Sendable` value; calls may run concurrently (the backend is an actor).
struct FirebaseEmulatorAdmin: Sendable {
  typealias Reply = FirebaseEmulatorRoutes.Reply
  typealias Routes = FirebaseEmulatorRoutes

  let backend: EmbeddedBackend
  /// Where this server is reached: the start of the links it makes.
  let baseURL: URL

  /// Answers `method` on `call`, what follows `projects/P` in the path (`/accounts:lookup`,
  /// `:createSessionCookie`…); ``backend`` is the project P.
  func reply(method: String, call: String, query: [String: String], body: Data) async -> Reply {
    if call == "/accounts:batchGet" {
      guard method == "GET" else { return Routes.failure(405, "METHOD_NOT_ALLOWED") }
      return await list(query)
    }
    // `projects/P/accounts` (create), `projects/P/accounts:NAME`, or the project's own
    // `projects/P:createSessionCookie`, kept apart by its colon.
    let name = ["/accounts": "create", ":createSessionCookie": ":createSessionCookie"][call]
    guard let name = name ?? call.dropPrefix("/accounts:") else {
      return Routes.failure(404, "NOT_FOUND: \(call)")
    }
    guard method == "POST" else { return Routes.failure(405, "METHOD_NOT_ALLOWED") }
    guard let fields = Routes.object(body) else {
      return Routes.failure(400, "INVALID_ARGUMENT: the body is not a JSON object")
    }
    do {
      switch name {
      case "create":
        let account = try await backend.adminCreate(
          uid: fields["localId"]?.string, try Self.changes(fields))
        var reply = AccountRecord()
        reply.kind = "identitytoolkit#SignupNewUserResponse"
        reply.localId = account.uid
        return Routes.reply(reply)
      case ":createSessionCookie":
        // `{"idToken": …, "validDuration": seconds}` (two weeks when absent).
        let seconds =
          try RequestNumber.integer(fields["validDuration"], field: "validDuration", in: 0...Int64(Int32.max))
          ?? 14 * 24 * 3600
        let cookie = try await backend.sessionCookie(
          idToken: try Routes.string("idToken", in: fields), validDuration: .seconds(seconds))
        return Routes.json(["sessionCookie": .string(cookie)])
      case "lookup":
        // `federatedUserId`: [{"providerId": "google.com", "rawId": "…"}], as get_users sends
        // a ProviderIdentifier.
        let federated = (fields["federatedUserId"]?.array ?? []).compactMap { entry -> (ProviderID, String)? in
          guard let provider = entry.object?["providerId"]?.string, let rawID = entry.object?["rawId"]?.string
          else { return nil }
          return (ProviderID(rawValue: provider), rawID)
        }
        let accounts = try await backend.adminLookup(
          uids: Self.strings(fields["localId"]), emails: Self.strings(fields["email"]),
          phones: Self.strings(fields["phoneNumber"]), federated: federated)
        var reply = LookupReply()
        reply.kind = "identitytoolkit#GetAccountInfoResponse"
        if !accounts.isEmpty { reply.users = accounts.map(Self.account) }
        return Routes.reply(reply)
      case "update":
        let uid = try Routes.string("localId", in: fields)
        let account = try await backend.adminUpdate(uid: uid, try Self.changes(fields))
        var reply = Self.account(account)
        reply.kind = "identitytoolkit#SetAccountInfoResponse"
        return Routes.reply(reply)
      case "delete":
        try await backend.deleteUser(uid: try Routes.string("localId", in: fields))
        return Routes.json(["kind": .string("identitytoolkit#DeleteAccountResponse")])
      case "batchDelete":
        var errors: [JSONValue] = []
        for (index, uid) in Self.strings(fields["localIds"]).enumerated() {
          do {
            try await backend.deleteUser(uid: uid)
          } catch let error as AuthError where error.code == .userNotFound {
            // Deleting an account that is not there succeeds, as Firebase's batch delete does.
          } catch {
            errors.append(
              .object([
                "index": .number(Double(index)), "localId": .string(uid),
                "message": .string(AuthError.wrapping(error).serverMessage ?? "INTERNAL_ERROR"),
              ]))
          }
        }
        return Routes.json(errors.isEmpty ? [:] : ["errors": .array(errors)])
      case "batchCreate":
        return try await batchCreate(fields)
      case "sendOobCode":
        return try await actionLink(fields)
      default:
        return Routes.failure(404, "NOT_FOUND: accounts:\(name)")
      }
    } catch {
      return Routes.failure(AuthError.wrapping(error))
    }
  }

  private func list(_ query: [String: String]) async -> Reply {
    let maxResults: Int
    do {
      maxResults = Int(try RequestNumber.integer(query: query["maxResults"], field: "maxResults", in: 1...1000) ?? 1000)
    } catch {
      return Routes.failure(400, "INVALID_PAGE_SELECTION : maxResults must be between 1 and 1000")
    }
    let accounts: [EmbeddedDatabase.Account]
    let next: String?
    do {
      (accounts, next) = try await backend.adminList(maxResults: maxResults, after: query["nextPageToken"])
    } catch {
      return Routes.failure(AuthError.wrapping(error))
    }
    var reply = LookupReply()
    reply.kind = "identitytoolkit#DownloadAccountResponse"
    reply.users = accounts.map(Self.account)
    reply.nextPageToken = next
    return Routes.reply(reply)
  }

  /// `batchCreate`: the users of one upload, stored in one transaction; a refused user is listed
  /// under its index in `error` and the others are stored.
  private func batchCreate(_ fields: [String: JSONValue]) async throws -> Reply {
    guard let users = fields["users"]?.array, !users.isEmpty else {
      return Routes.failure(400, "MISSING_USER_ACCOUNT")
    }
    guard users.count <= 1000 else {
      return Routes.failure(400, "MAXIMUM_USER_COUNT_EXCEEDED : at most 1000 users per upload")
    }
    let hashing = try PasswordImport(fields)
    var accounts: [ImportedAccount] = []
    for user in users {
      accounts.append(try Self.imported(user.object ?? [:], hashing: hashing))
    }
    let refusals = try await backend.adminImport(accounts, allowOverwrite: fields["allowOverwrite"]?.bool ?? false)
    return Routes.json([
      "kind": .string("identitytoolkit#UploadAccountResponse"),
      "error": .array(
        refusals.map { .object(["index": .number(Double($0.index)), "message": .string($0.message)]) }),
    ])
  }

  /// One user of an upload, as the Admin SDKs send it.
  static func imported(_ user: [String: JSONValue], hashing: PasswordImport) throws -> ImportedAccount {
    var account = ImportedAccount(uid: user["localId"]?.string ?? "")
    account.email = user["email"]?.string
    account.emailVerified = user["emailVerified"]?.bool ?? false
    account.displayName = user["displayName"]?.string
    account.photoURL = user["photoUrl"]?.string.flatMap(URL.init(string:))
    account.disabled = user["disabled"]?.bool ?? false
    account.customAttributes = user["customAttributes"]?.string
    account.rawPassword = user["rawPassword"]?.string
    if let hash = user["passwordHash"]?.string {
      account.password = try hashing.hash(hash, salt: user["salt"]?.string)
    }
    let milliseconds = 0...253_402_300_799_999 as ClosedRange<Int64>
    account.createdAt = try RequestNumber.integer(user["createdAt"], field: "createdAt", in: milliseconds)
      .map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    account.lastLoginAt = try RequestNumber.integer(user["lastLoginAt"], field: "lastLoginAt", in: milliseconds)
      .map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    account.providers = (user["providerUserInfo"]?.array ?? []).compactMap { entry in
      guard let entry = entry.object, let provider = entry["providerId"]?.string, let rawID = entry["rawId"]?.string
      else { return nil }
      return ProviderInfo(
        providerID: ProviderID(rawValue: provider), rawID: rawID, email: entry["email"]?.string?.lowercased(),
        displayName: entry["displayName"]?.string, photoURL: entry["photoUrl"]?.string.flatMap(URL.init(string:)))
    }
    return account
  }

  /// `sendOobCode` with `returnOobLink`: the code and a link to this server's action page.
  private func actionLink(_ fields: [String: JSONValue]) async throws -> Reply {
    let kind = fields["requestType"]?.string ?? ""
    guard FirebaseEmulatorUtilities.modes[kind] != nil else {
      return Routes.failure(
        400,
        "INVALID_REQ_TYPE : requestType must be PASSWORD_RESET, VERIFY_EMAIL, EMAIL_SIGNIN or VERIFY_AND_CHANGE_EMAIL")
    }
    let email = try Routes.string("email", in: fields)
    let code = try await backend.adminActionCode(
      kind: kind, email: email, newEmail: fields["newEmail"]?.string,
      continueURL: fields["continueUrl"]?.string.flatMap(URL.init(string:)))
    var reply = OobCodeReply()
    reply.kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    reply.email = email.lowercased()
    reply.oobCode = code
    reply.oobLink = FirebaseEmulatorUtilities.actionLink(
      baseURL: baseURL, kind: kind, code: code, continueURL: fields["continueUrl"]?.string)
    return Routes.reply(reply)
  }

  // MARK: - Shapes

  static func changes(_ fields: [String: JSONValue]) throws -> AdminAccountChanges {
    var changes = AdminAccountChanges()
    changes.email = fields["email"]?.string
    changes.phoneNumber = fields["phoneNumber"]?.string
    changes.password = fields["password"]?.string
    changes.displayName = fields["displayName"]?.string
    changes.photoURL = fields["photoUrl"]?.string.flatMap(URL.init(string:))
    changes.emailVerified = fields["emailVerified"]?.bool
    changes.disabled = fields["disableUser"]?.bool ?? fields["disabled"]?.bool
    changes.customAttributes = fields["customAttributes"]?.string
    changes.validSince = try RequestNumber.date(fields["validSince"], field: "validSince")
    changes.deleteAttributes = strings(fields["deleteAttribute"]).compactMap(
      UpdateAccountRequest.Attribute.init(rawValue:))
    changes.deleteProviders = strings(fields["deleteProvider"]).map(ProviderID.init(rawValue:))
    return changes
  }

  /// A user record as the admin lookup and list calls return it.
  static func account(_ account: EmbeddedDatabase.Account) -> AccountRecord {
    var record = Routes.account(account.info)
    record.validSince = String(RequestNumber.whole(account.validSince.timeIntervalSince1970))
    if let claims = account.customClaims, let text = try? JSONEncoder().encode(JSONValue.object(claims)) {
      record.customAttributes = String(decoding: text, as: UTF8.self)
    }
    if account.customAuth == true { record.customAuth = true }
    record.passwordUpdatedAt = account.passwordUpdatedAt.map { ($0.timeIntervalSince1970 * 1000).rounded() }
    record.lastRefreshAt = account.lastActiveAt.formatted(Routes.isoMilliseconds)
    record.passwordHash = account.password?.hash
    record.salt = account.password?.salt
    return record
  }

  /// A string or an array of strings, as the Admin SDKs send `localId` and `email`.
  static func strings(_ value: JSONValue?) -> [String] {
    if let single = value?.string { return [single] }
    return value?.array?.compactMap(\.string) ?? []
  }
}
