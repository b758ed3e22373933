import Foundation

extension Auth {
  /// Where an `Auth` keeps its session unless told: the keychain on Apple platforms
  /// (``KeychainSessionStore``), a file elsewhere (``FileSessionStore/default(namespace:environment:)``).
  /// The one place the choice is made.
  public static func defaultSessionStore(namespace: String = "default") -> any SessionStore {
    #if canImport(Security)
      KeychainSessionStore(namespace: namespace, accessGroup: nil)
    #else
      FileSessionStore.default(namespace: namespace)
    #endif
  }
}
