import Foundation
import SignInKit
import SignInWire

/// The administrator's batch calls and session cookies (`projects/P[/tenants/T]/…`), as the Admin
/// SDKs' `import_users`, `delete_users`, `list_users` and `create_session_cookie` send them.
enum AdministrationEndpoints {
  /// `batchCreate`: the users of one upload, stored in one transaction; a refused user is listed
  /// under its index and the others are stored.
  static func batchCreate(_ body: UploadAccountBody, _ context: ServiceContext) async throws -> UploadAccountReply {
    guard let users = body.users, !users.isEmpty else { throw FirebaseFailure(.missingUserAccount) }
    guard users.count <= 1000 else {
      throw FirebaseFailure(.maximumUserCountExceeded, "at most 1000 users per upload")
    }
    let hashing = try PasswordImport(body)
    let accounts = try users.map { try hashing.account($0) }
    let refusals = try await context.backend().adminImport(accounts, allowOverwrite: body.allowOverwrite ?? false)
    var reply = UploadAccountReply()
    reply.kind = "identitytoolkit#UploadAccountResponse"
    reply.error = refusals.map { .init(index: $0.index, message: $0.message) }
    return reply
  }

  /// `batchDelete`: deleting an account that is not there succeeds, as Firebase's does.
  static func batchDelete(_ body: BatchDeleteBody, _ context: ServiceContext) async throws -> BatchDeleteReply {
    let backend = try await context.backend()
    var errors: [IndexedError] = []
    for (index, uid) in (body.localIds ?? []).enumerated() {
      do {
        try await backend.deleteUser(uid: uid)
      } catch let error as AuthError where error.code == .userNotFound {
        continue
      } catch {
        let failure = AuthError.wrapping(error).firebaseFailure ?? FirebaseFailure(.internalError)
        errors.append(IndexedError(index: index, localId: uid, message: failure.message))
      }
    }
    var reply = BatchDeleteReply()
    if !errors.isEmpty { reply.errors = errors }
    return reply
  }

  /// `batchGet`: a page of accounts in uid order, `maxResults` (at most 1000) at a time, of the
  /// project or of the tenant `tenantId` names. As the emulator does (and its export relies on),
  /// `maxResults=-1` lists every account at once, with no next page.
  static func batchGet(_ body: DownloadAccountQuery, _ context: ServiceContext) async throws -> LookupReply {
    let backend = try await context.backend()
    var reply = LookupReply()
    reply.kind = "identitytoolkit#DownloadAccountResponse"
    if body.maxResults == "-1" {
      reply.users = try await allAccounts(of: backend, after: body.nextPageToken).map {
        ReplyShapes.adminAccount($0, of: backend)
      }
      return reply
    }
    let maxResults: Int
    do {
      maxResults = Int(try RequestNumber.integer(query: body.maxResults, field: "maxResults", in: 1...1000) ?? 1000)
    } catch {
      throw FirebaseFailure(
        .invalidPageSelection, "maxResults must be between 1 and 1000 (or -1 for every account, as the emulator takes)")
    }
    let (accounts, next) = try await backend.administering({
      try $0.adminList(maxResults: maxResults, after: body.nextPageToken)
    })
    reply.users = accounts.map { ReplyShapes.adminAccount($0, of: backend) }
    reply.nextPageToken = next
    return reply
  }

  /// Every account of `backend` in uid order, after `pageToken` when given.
  static func allAccounts(of backend: EmbeddedBackend, after pageToken: String? = nil) async throws
    -> [EmbeddedDatabase.Account]
  {
    var accounts: [EmbeddedDatabase.Account] = []
    var after = pageToken
    repeat {
      let token = after
      let (page, next) = try await backend.administering { try $0.adminList(maxResults: 1000, after: token) }
      accounts += page
      after = next
    } while after != nil
    return accounts
  }

  /// `accounts:query`: the users in uid order (descending with `order: DESC`), those matching
  /// `expression` when given, `limit` (at most 500, the default) from `offset`; with
  /// `returnUserInfo: false` only their count.
  static func queryAccounts(_ body: QueryAccountsBody, _ context: ServiceContext) async throws
    -> QueryAccountsReply
  {
    let limit = Int(try RequestNumber.integer(query: body.limit, field: "limit", in: 1...500) ?? 500)
    let offset = Int(try RequestNumber.integer(query: body.offset, field: "offset", in: 0...Int64(Int32.max)) ?? 0)
    guard [nil, "SORT_BY_FIELD_UNSPECIFIED", "USER_ID"].contains(body.sortBy) else {
      throw FirebaseFailure(.invalidArgument, "sortBy \(body.sortBy ?? "") is not kept here; use USER_ID")
    }
    guard [nil, "ORDER_UNSPECIFIED", "ASC", "DESC"].contains(body.order) else {
      throw FirebaseFailure(.invalidArgument, "order must be ASC or DESC")
    }
    let backend = try await context.backend()
    var matched = try await allAccounts(of: backend).filter { account in
      guard let expression = body.expression, !expression.isEmpty else { return true }
      return expression.contains { term in
        (term.email.map { $0.lowercased() == account.email } ?? true)
          && (term.userId.map { $0 == account.uid } ?? true)
          && (term.phoneNumber.map { $0 == account.phoneNumber } ?? true)
      }
    }
    if body.order == "DESC" { matched.reverse() }
    var reply = QueryAccountsReply()
    reply.recordsCount = String(matched.count)
    if body.returnUserInfo != false {
      reply.userInfo = matched.dropFirst(offset).prefix(limit).map { ReplyShapes.adminAccount($0, of: backend) }
    }
    return reply
  }

  /// A session cookie for the user of `idToken`, valid for `validDuration` seconds (two weeks
  /// when absent).
  static func createSessionCookie(_ body: CreateSessionCookieBody, _ context: ServiceContext) async throws
    -> SessionCookieReply
  {
    let seconds = body.validDuration?.value ?? 14 * 24 * 3600
    guard (0...Int64(Int32.max)).contains(seconds) else {
      throw FirebaseFailure.invalidValue(
        field: CreateSessionCookieBody.CodingKeys.validDuration.stringValue,
        expected: "TYPE_INT64, seconds from 0 to \(Int32.max)")
    }
    let idToken = try body.required(body.idToken, .missingIdToken)
    let cookie = try await context.backend().administering {
      try $0.sessionCookie(idToken: idToken, validDuration: .seconds(seconds))
    }
    return SessionCookieReply(sessionCookie: cookie)
  }
}
