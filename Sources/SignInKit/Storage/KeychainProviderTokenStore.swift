import Foundation

/// A ``ProviderTokenStore`` in the keychain: one generic-password item per provider and
/// namespace (`dev.signinkit.provider` / `<namespace>.<provider>`), readable after the device's
/// first unlock, like ``KeychainSessionStore``'s.
///
/// - Concurrency: `Sendable` value; any isolation.
public struct KeychainProviderTokenStore: ProviderTokenStore {
  public let item: KeychainItem
  private let keychain: any KeychainItems

  /// - Parameters:
  ///   - provider: whose refresh token the item holds.
  ///   - namespace: the app's or account set's name, as ``KeychainSessionStore`` takes it.
  ///   - service: `kSecAttrService`; by default `dev.signinkit.provider`.
  ///   - accessGroup: share the token with app extensions in this keychain access group.
  ///   - keychain: the keychain; `SystemKeychain` on Apple platforms.
  package init(
    provider: ProviderID, namespace: String = "default", service: String = "dev.signinkit.provider",
    accessGroup: String? = nil, keychain: any KeychainItems
  ) {
    item = KeychainItem(service: service, account: "\(namespace).\(provider.rawValue)", accessGroup: accessGroup)
    self.keychain = keychain
  }

  public func load() throws -> String? {
    let (status, data) = keychain.copyData(of: item)
    switch status {
    case .itemNotFound: return nil
    case .success: return data.flatMap { String(data: $0, encoding: .utf8) }.flatMap { $0.isEmpty ? nil : $0 }
    default: throw failure(status, doing: "read")
    }
  }

  public func save(_ refreshToken: String) throws {
    let data = Data(refreshToken.utf8)
    var status = keychain.update(item, to: data)
    if status == .itemNotFound { status = keychain.add(data, as: item) }
    guard status == .success else { throw failure(status, doing: "write") }
  }

  public func clear() throws {
    let status = keychain.delete(item)
    guard status == .success || status == .itemNotFound else { throw failure(status, doing: "delete") }
  }

  private func failure(_ status: KeychainStatus, doing what: String) -> AuthError {
    if status == .interactionNotAllowed {
      return AuthError(
        .storage, "The keychain is locked until the device is first unlocked; could not \(what) \(item). Try again.")
    }
    return AuthError(.storage, "Could not \(what) \(item) (\(status)). Try again; report it if it persists.")
  }
}
