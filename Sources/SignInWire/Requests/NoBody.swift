/// A call that sends nothing, or a reply that says nothing (`{}`): `GET` without parameters,
/// `accounts:delete`'s answer.
///
/// - Concurrency: `Sendable` value.
package struct NoBody: WireBody, LenientValue {
  package init() {}

  package enum CodingKeys: CodingKey, CaseIterable {
    package var stringValue: String { switch self {} }
    package var intValue: Int? { nil }
    package init?(stringValue: String) { nil }
    package init?(intValue: Int) { nil }
  }

  /// Any object will do; its fields are not read.
  package init(from decoder: any Decoder) throws {
    _ = try decoder.container(keyedBy: WireFieldName.self)
  }

  package func encode(to encoder: any Encoder) throws {
    _ = encoder.container(keyedBy: WireFieldName.self)
  }
}
