/// `accounts:batchCreate`: the users refused, by their index in the upload.
///
/// - Concurrency: `Sendable` value.
package struct UploadAccountReply: WireBody, LenientValue {
  @Lenient package var kind: String?
  @Lenient package var error: [UploadError]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, error
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + UploadError.fieldNames }

  /// A user an upload refused: its index in the upload, and why.
  ///
  /// - Concurrency: `Sendable` value.
  package struct UploadError: WireBody, LenientValue {
    @Lenient package var index: Double?
    @Lenient package var message: String?

    package init(index: Int, message: String) {
      self.index = Double(index)
      self.message = message
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case index, message
    }
  }
}

/// `accounts:batchDelete`: the accounts that could not be deleted.
///
/// - Concurrency: `Sendable` value.
package struct BatchDeleteReply: WireBody, LenientValue {
  @Lenient package var errors: [IndexedError]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case errors
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + IndexedError.fieldNames }
}

/// An account a batch delete could not delete: where in the batch, whose, and why.
///
/// - Concurrency: `Sendable` value.
package struct IndexedError: WireBody, LenientValue {
  @Lenient package var index: Double?
  @Lenient package var localId: String?
  @Lenient package var message: String?

  package init(index: Int, localId: String? = nil, message: String) {
    self.index = Double(index)
    self.localId = localId
    self.message = message
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case index, localId, message
  }
}

/// `projects/P:createSessionCookie`.
///
/// - Concurrency: `Sendable` value.
package struct SessionCookieReply: WireBody, LenientValue {
  @Lenient package var sessionCookie: String?

  package init(sessionCookie: String? = nil) { self.sessionCookie = sessionCookie }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case sessionCookie
  }
}

/// `accounts:delete`: nothing but its kind.
///
/// - Concurrency: `Sendable` value.
package struct DeleteAccountReply: WireBody, LenientValue {
  @Lenient package var kind: String?

  package init(kind: String? = nil) { self.kind = kind }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind
  }
}
