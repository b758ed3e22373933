/// Firebase's error reply: `{"error": {"code": 400, "message": "EMAIL_EXISTS", "errors": [...]}}`.
///
/// - Concurrency: `Sendable` value.
package struct ErrorEnvelope: WireBody {
  @Lenient package var error: Failure?

  package init() {}

  /// An envelope for `message`, with the HTTP `status` as its code and Google's one-entry
  /// `errors` list.
  package init(status: Int, message: String, statusName: String? = nil) {
    var failure = Failure()
    failure.code = Double(status)
    failure.message = message
    failure.status = statusName
    var detail = Failure.Detail()
    detail.message = message
    detail.reason = status == 403 ? "forbidden" : "invalid"
    detail.domain = "global"
    failure.errors = [detail]
    error = failure
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case error
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + Failure.fieldNames + Failure.Detail.fieldNames
  }

  /// The envelope's content.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Failure: WireBody, LenientValue {
    @Lenient package var code: Double?
    @Lenient package var message: String?
    @Lenient package var errors: [Detail]?
    /// Google's status name (`PERMISSION_DENIED`), which Firebase sends beside errors other than
    /// a plain 400.
    @Lenient package var status: String?

    package init() {}

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case code, message, errors, status
    }

    /// One entry of `errors`; `reason` refines a message (`invalid`, `authError`).
    ///
    /// - Concurrency: `Sendable` value.
    package struct Detail: WireBody, LenientValue {
      @Lenient package var message: String?
      @Lenient package var reason: String?
      @Lenient package var domain: String?

      package init() {}

      package enum CodingKeys: String, CodingKey, CaseIterable {
        case message, reason, domain
      }
    }
  }
}
