import Foundation
import SignInWire

/// `accounts:update`. Set `idToken` and what changes; or set only `oobCode` to apply an
/// email-verification code.
///
/// - Concurrency: `Sendable` value; its description never contains a password or token.
public struct UpdateAccountRequest: Sendable, Equatable, CustomStringConvertible,
  CustomReflectable
{
  /// `deleteAttribute` values.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Attribute: Sendable, Equatable {
    case displayName
    case photoURL

    /// The wire name: `DISPLAY_NAME`, `PHOTO_URL`.
    public var rawValue: String { wire.rawValue }

    /// The wire value.
    package var wire: AccountAttribute { self == .displayName ? .displayName : .photoURL }

    /// The attribute the wire value names; `nil` for one only an administrator removes.
    package init?(_ wire: AccountAttribute) {
      switch wire {
      case .displayName: self = .displayName
      case .photoURL: self = .photoURL
      default: return nil
      }
    }
  }

  public var idToken: String?
  public var oobCode: String?
  public var email: String?
  public var password: String?
  public var displayName: String?
  public var photoURL: URL?
  public var deleteAttributes: [Attribute]
  public var deleteProviders: [ProviderID]
  /// Passkeys to remove, by credential id (``PasskeyInfo/credentialID``).
  public var deletePasskeys: [String] = []

  public init(
    idToken: String? = nil, oobCode: String? = nil, email: String? = nil, password: String? = nil,
    displayName: String? = nil, photoURL: URL? = nil, deleteAttributes: [Attribute] = [],
    deleteProviders: [ProviderID] = []
  ) {
    self.idToken = idToken
    self.oobCode = oobCode
    self.email = email
    self.password = password
    self.displayName = displayName
    self.photoURL = photoURL
    self.deleteAttributes = deleteAttributes
    self.deleteProviders = deleteProviders
  }

  public var description: String {
    var parts: [String] = []
    if oobCode != nil { parts.append("oobCode") }
    if let email { parts.append("email: \(email)") }
    if password != nil { parts.append("password") }
    if let displayName { parts.append("displayName: \(displayName)") }
    if let photoURL { parts.append("photoURL: \(photoURL)") }
    if !deleteAttributes.isEmpty { parts.append("delete: \(deleteAttributes.map(\.rawValue))") }
    if !deleteProviders.isEmpty { parts.append("unlink: \(deleteProviders.map(\.rawValue))") }
    if !deletePasskeys.isEmpty { parts.append("remove passkeys: \(deletePasskeys)") }
    return "UpdateAccountRequest(\(parts.joined(separator: ", ")))"
  }
  public var customMirror: Mirror {
    Mirror(self, children: ["email": email as Any, "displayName": displayName as Any])
  }
}
