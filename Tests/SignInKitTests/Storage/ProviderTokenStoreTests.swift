import Foundation
import Testing

@testable import SignInKit

/// The stores an identity provider's refresh token is kept in between launches.
@Suite struct ProviderTokenStoreTests {
  @Test func theKeychainStoreKeepsOneItemPerProviderAndNamespace() throws {
    let keychain = FakeKeychain()
    let google = KeychainProviderTokenStore(provider: .google, namespace: "work", keychain: keychain)
    let apple = KeychainProviderTokenStore(provider: .apple, namespace: "work", keychain: keychain)
    #expect(try google.load() == nil)
    try google.save("rt-1")
    try google.save("rt-2")
    #expect(try google.load() == "rt-2")
    #expect(try apple.load() == nil)
    #expect(google.item == KeychainItem(service: "dev.signinkit.provider", account: "work.google.com"))
    try google.clear()
    try google.clear()
    #expect(try google.load() == nil)
  }

  @Test func aLockedKeychainIsAStorageErrorAndTheTokenStays() throws {
    let keychain = FakeKeychain()
    let store = KeychainProviderTokenStore(provider: .google, keychain: keychain)
    try store.save("rt-1")
    keychain.isLocked = true
    let error = try #require(throws: AuthError.self) { try store.load() }
    #expect(error.code == .storage && error.message.contains("Try again"))
    #expect(throws: AuthError.self) { try store.clear() }
    keychain.isLocked = false
    #expect(try store.load() == "rt-1")
  }

  @Test func theFileStoreIsPrivateToTheUser() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("provider-token-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = FileProviderTokenStore(file: folder.appendingPathComponent("google.com.refresh-token"))
    #expect(try store.load() == nil)
    try store.save("rt-1")
    #expect(try store.load() == "rt-1")
    let attributes = try FileManager.default.attributesOfItem(atPath: store.file.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    try store.clear()
    try store.clear()
    #expect(try store.load() == nil)
  }
}
