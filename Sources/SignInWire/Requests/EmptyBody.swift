/// An object with no fields, such as `totpEnrollmentInfo: {}`.
///
/// - Concurrency: `Sendable` value.
package struct EmptyBody: LenientValue {
  private struct NoKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  package init() {}

  /// Any object will do; its fields are not read.
  package init(from decoder: any Decoder) throws {
    _ = try decoder.container(keyedBy: NoKey.self)
  }

  package func encode(to encoder: any Encoder) throws {
    _ = encoder.container(keyedBy: NoKey.self)
  }

  package static func lenient(from container: any SingleValueDecodingContainer) -> EmptyBody? {
    try? container.decode(EmptyBody.self)
  }
}
