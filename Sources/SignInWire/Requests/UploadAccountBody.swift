/// `accounts:batchCreate` (the Admin SDKs' `import_users`): up to 1,000 users, and how their
/// password hashes were made.
///
/// - Concurrency: `Sendable` value.
package struct UploadAccountBody: WireBody, TenantNaming {
  package var users: [AccountRecord]?
  package var hashAlgorithm: HashAlgorithm?
  package var signerKey: String?
  package var saltSeparator: String?
  package var rounds: Int?
  package var memoryCost: Int?
  package var cpuMemCost: Int?
  package var parallelization: Int?
  package var blockSize: Int?
  package var dkLen: Int?
  package var passwordHashOrder: PasswordHashOrder?
  package var allowOverwrite: Bool?
  package var sanityCheck: Bool?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case users, hashAlgorithm, signerKey, saltSeparator, rounds, memoryCost, cpuMemCost, parallelization, blockSize,
      dkLen, passwordHashOrder, allowOverwrite, sanityCheck, tenantId
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + AccountRecord.fieldNames }
}

/// `accounts:batchDelete`: the accounts with these uids.
///
/// - Concurrency: `Sendable` value.
package struct BatchDeleteBody: WireBody, TenantNaming {
  package var localIds: [String]?
  package var force: Bool?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case localIds, force, tenantId
  }
}

/// `accounts:batchGet` (the Admin SDKs' `list_users`): a page of accounts, in the query.
///
/// - Concurrency: `Sendable` value.
package struct DownloadAccountQuery: WireBody, TenantNaming {
  package var maxResults: String?
  package var nextPageToken: String?
  /// The tenant whose accounts to list (the emulator's export asks each tenant this way).
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case maxResults, nextPageToken, tenantId
  }

  package static var unlistedFields: [String: String] {
    [
      "tenantId":
        "Google lists it on projects/P/accounts:batchGet; on the tenant's own path the path names the tenant, and "
        + "the Firebase emulator's export asks the project path with it"
    ]
  }

  package static var queryKeys: [CodingKeys] { CodingKeys.allCases }
}

/// `projects/P:createSessionCookie`: a session cookie for the user of `idToken`, valid for
/// `validDuration` seconds.
///
/// - Concurrency: `Sendable` value.
package struct CreateSessionCookieBody: WireBody, TenantNaming {
  package var idToken: String?
  package var validDuration: WireInt64?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, validDuration, tenantId
  }
}

/// A page of a v2 collection (tenants, provider configurations), in the query.
///
/// - Concurrency: `Sendable` value.
package struct PageQuery: WireBody {
  package var pageSize: String?
  package var pageToken: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case pageSize, pageToken
  }

  package static var queryKeys: [CodingKeys] { CodingKeys.allCases }
}
