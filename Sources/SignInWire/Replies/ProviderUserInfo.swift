/// One sign-in method of an ``AccountRecord``.
///
/// - Concurrency: `Sendable` value.
package struct ProviderUserInfo: WireBody, LenientValue {
  @Lenient package var providerId: String?
  @Lenient package var rawId: String?
  @Lenient package var federatedId: String?
  @Lenient package var email: String?
  @Lenient package var displayName: String?
  @Lenient package var photoUrl: String?
  @Lenient package var phoneNumber: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case providerId, rawId, federatedId, email, displayName, photoUrl, phoneNumber
  }
}
