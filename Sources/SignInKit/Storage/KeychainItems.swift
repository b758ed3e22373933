import Foundation

/// One generic-password item: what ``KeychainSessionStore`` asks a keychain for.
///
/// - Concurrency: `Sendable` value.
public struct KeychainItem: Sendable, Hashable, CustomStringConvertible {
  /// `kSecAttrService`: the store's namespace.
  public var service: String
  /// `kSecAttrAccount`.
  public var account: String
  /// `kSecAttrAccessGroup`, to share the item with app extensions; `nil` for the app's own.
  public var accessGroup: String?

  public init(service: String, account: String, accessGroup: String? = nil) {
    self.service = service
    self.account = account
    self.accessGroup = accessGroup
  }

  public var description: String {
    "keychain item \(service)/\(account)" + (accessGroup.map { " in \($0)" } ?? "")
  }
}

/// What a keychain call answered, from its `OSStatus`.
///
/// - Concurrency: `Sendable` value.
package enum KeychainStatus: Sendable, Equatable {
  case success
  case itemNotFound
  case duplicateItem
  /// The keychain is locked (`errSecInteractionNotAllowed`): the device has not been unlocked
  /// since it started, or the app runs in the background before first unlock. Retryable.
  case interactionNotAllowed
  case other(Int32)

  /// The status for a Security framework `OSStatus`.
  package init(_ status: Int32) {
    switch status {
    case 0: self = .success  // errSecSuccess
    case -25300: self = .itemNotFound  // errSecItemNotFound
    case -25299: self = .duplicateItem  // errSecDuplicateItem
    case -25308: self = .interactionNotAllowed  // errSecInteractionNotAllowed
    default: self = .other(status)
    }
  }
}

/// A keychain of generic-password items, as ``KeychainSessionStore`` uses it. `SystemKeychain`
/// is Apple's (Security's `SecItem` calls); tests pass an in-memory one.
///
/// - Concurrency: `Sendable`; calls may come from any thread.
package protocol KeychainItems: Sendable {
  /// The item's data; `.itemNotFound` when there is none.
  func copyData(of item: KeychainItem) -> (KeychainStatus, Data?)
  /// Adds the item; `.duplicateItem` when it exists.
  func add(_ data: Data, as item: KeychainItem) -> KeychainStatus
  /// Replaces an existing item's data; `.itemNotFound` when there is none.
  func update(_ item: KeychainItem, to data: Data) -> KeychainStatus
  /// Deletes the item; `.itemNotFound` when there is none.
  func delete(_ item: KeychainItem) -> KeychainStatus
}
