import Foundation
import SignInKit

#if canImport(Security)
  // snippet.begin shared-session
  /// The `Auth` of an app that shares its session with its widget and extensions: the keychain
  /// item moves to the shared access group once (later launches find nothing left to move), and
  /// the App Group's container holds the lock files that keep their refreshes from crossing.
  /// The extensions make their `Auth` the same way, so each follows the others' sign-ins,
  /// sign-outs and refreshes.
  public func sharedSessionAuth(backend: any AuthBackend) throws -> Auth {
    let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.app")
    let store = try KeychainSessionStore(namespace: "default")
      .migrate(toAccessGroup: "ABCDE12345.com.example.app.shared", sharedFolder: container)
    return Auth(backend: backend, store: store)
  }
// snippet.end
#endif
