/// An administrator's `accounts:query`: a page of a project's or tenant's users in uid order
/// (`limit` up to 500, from `offset`), those matching `expression` when given, or only how many
/// there are with `returnUserInfo: false`.
///
/// - Concurrency: `Sendable` value.
package struct QueryAccountsBody: WireBody, TenantNaming {
  package var returnUserInfo: Bool?
  package var limit: String?
  package var offset: String?
  /// `USER_ID` (the only order kept here) or `SORT_BY_FIELD_UNSPECIFIED`.
  package var sortBy: String?
  /// `ASC` or `DESC`.
  package var order: String?
  package var expression: [Expression]?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case returnUserInfo, limit, offset, sortBy, order, expression, tenantId
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + Expression.fieldNames }

  /// Users whose fields equal every field given; a user matches the query when one expression
  /// matches.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Expression: WireBody {
    package var email: String?
    package var userId: String?
    package var phoneNumber: String?

    package init() {}

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case email, userId, phoneNumber
    }
  }
}

/// What `accounts:query` answers: how many users matched, and those of the page.
///
/// - Concurrency: `Sendable` value.
package struct QueryAccountsReply: WireBody, LenientValue {
  @Lenient package var recordsCount: String?
  @Lenient package var userInfo: [AccountRecord]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case recordsCount, userInfo
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + AccountRecord.fieldNames }
}
