/// `accounts:lookup` and `accounts:delete`: the account the ID token names.
///
/// - Concurrency: `Sendable` value.
package struct IDTokenBody: WireBody {
  package var idToken: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken
  }
}
