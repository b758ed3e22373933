import Foundation

/// One sign-in method linked to a user, as the backend reports it.
///
/// - Concurrency: `Sendable` value.
public struct ProviderInfo: Sendable, Hashable, Codable {
  /// Which provider: `password`, `google.com`, …
  public var providerID: ProviderID
  /// The user's id at that provider (the email for `password`).
  public var rawID: String
  public var email: String?
  public var displayName: String?
  public var photoURL: URL?

  public init(
    providerID: ProviderID, rawID: String, email: String? = nil, displayName: String? = nil,
    photoURL: URL? = nil
  ) {
    self.providerID = providerID
    self.rawID = rawID
    self.email = email
    self.displayName = displayName
    self.photoURL = photoURL
  }
}
