#if canImport(Security)
  import Foundation
  import Security

  /// Apple's keychain through Security's `SecItem` functions: generic-password items, readable
  /// after first unlock, in the data-protection keychain on macOS too.
  ///
  /// - Concurrency: `Sendable`; the `SecItem` functions are thread-safe.
  package struct SystemKeychain: KeychainItems {
    package init() {}

    package func copyData(of item: KeychainItem) -> (KeychainStatus, Data?) {
      var query = Self.query(item)
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      let status = SecItemCopyMatching(query as CFDictionary, &result)
      return (KeychainStatus(status), result as? Data)
    }

    package func add(_ data: Data, as item: KeychainItem) -> KeychainStatus {
      var attributes = Self.query(item)
      attributes[kSecValueData as String] = data
      attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
      return KeychainStatus(SecItemAdd(attributes as CFDictionary, nil))
    }

    package func update(_ item: KeychainItem, to data: Data) -> KeychainStatus {
      let changes: [String: Any] = [
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
      ]
      return KeychainStatus(SecItemUpdate(Self.query(item) as CFDictionary, changes as CFDictionary))
    }

    package func delete(_ item: KeychainItem) -> KeychainStatus {
      KeychainStatus(SecItemDelete(Self.query(item) as CFDictionary))
    }

    private static func query(_ item: KeychainItem) -> [String: Any] {
      var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: item.service,
        kSecAttrAccount as String: item.account,
        kSecUseDataProtectionKeychain as String: true,
      ]
      if let group = item.accessGroup { query[kSecAttrAccessGroup as String] = group }
      return query
    }
  }

  extension KeychainSessionStore {
    /// A store for `namespace` in the system keychain, announcing its writes with Darwin
    /// notifications.
    ///
    /// - Parameters:
    ///   - accessGroup: share the session with app extensions in this keychain access group.
    ///   - sharedFolder: the App Group container the app and its extensions share
    ///     (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`): their refreshes
    ///     and writes take a lock file there, so they never cross.
    public init(namespace: String = "default", accessGroup: String? = nil, sharedFolder: URL? = nil) {
      #if canImport(UIKit) && !os(watchOS)
        let protectedData: any ProtectedDataAvailability = SystemProtectedData()
      #else
        let protectedData: any ProtectedDataAvailability = AlwaysAvailableData()
      #endif
      self.init(
        namespace: namespace, accessGroup: accessGroup, sharedFolder: sharedFolder, keychain: SystemKeychain(),
        notices: DarwinChangeNotices(), protectedData: protectedData)
    }
  }

  extension KeychainProviderTokenStore {
    /// A store of `provider`'s tokens for `namespace` in the system keychain.
    public init(provider: ProviderID, namespace: String = "default", accessGroup: String? = nil) {
      self.init(provider: provider, namespace: namespace, accessGroup: accessGroup, keychain: SystemKeychain())
    }
  }
#endif
