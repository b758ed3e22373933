import Foundation
import SignInKitEmbedded
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// Passkeys on every backend: enrolment, a discoverable sign-in, listing and removal, with the
/// development authenticator standing in for the platform's.
@Suite(.timeLimit(.minutes(3)))
struct AuthPasskeyTests {
  static func authenticator(_ harness: Harness) throws -> DevelopmentPasskeyAuthenticator {
    let clock = harness.clock
    return try DevelopmentPasskeyAuthenticator(directory: nil, now: { clock.date })
  }

  @Test(arguments: BackendKind.allCases)
  func anEnrolledPasskeySignsInWithoutAnEmail(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let device = try Self.authenticator(harness)
    let signedUp = try await harness.signUp()
    let user = try await harness.auth.enrollPasskey(named: "Laptop", using: device)
    #expect(user.uid == signedUp.user.uid)
    #expect(user.passkeys.map(\.name) == ["Laptop"])
    let held = await device.passkeys(for: "localhost")
    #expect(held.map(\.id) == user.passkeys.map(\.credentialID))
    #expect(held.first?.userName == "ada@example.com")
    #expect(try harness.store.load()?.user.passkeys == user.passkeys)
    try await harness.auth.signOut()

    let result = try await harness.auth.signInWithPasskey(using: device)
    #expect(result.user.uid == signedUp.user.uid && result.providerID == .passkey && !result.isNewUser)
    #expect(try await harness.auth.idTokenResult().signInProvider == .passkey)
  }

  @Test(arguments: BackendKind.allCases)
  func aSecondPasskeyFromTheSameAuthenticatorIsRefusedAndAnotherIsListed(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let laptop = try Self.authenticator(harness)
    try await harness.signUp()
    try await harness.auth.enrollPasskey(named: "Laptop", using: laptop)
    let again = await #expect(throws: AuthError.self) {
      try await harness.auth.enrollPasskey(named: "Laptop again", using: laptop)
    }
    #expect(again?.code == .passkeyRefused)
    let phone = try Self.authenticator(harness)
    let user = try await harness.auth.enrollPasskey(named: "Phone", using: phone)
    #expect(user.passkeys.map(\.name) == ["Laptop", "Phone"])
  }

  @Test(arguments: BackendKind.allCases)
  func aRemovedPasskeyNoLongerSignsIn(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let device = try Self.authenticator(harness)
    try await harness.signUp()
    let enrolled = try await harness.auth.enrollPasskey(named: "Laptop", using: device)
    let id = try #require(enrolled.passkeys.first?.credentialID)
    let missing = await #expect(throws: AuthError.self) { try await harness.auth.removePasskey(credentialID: "nope") }
    #expect(missing?.code == .noPasskey)
    let user = try await harness.auth.removePasskey(credentialID: id)
    #expect(user.passkeys.isEmpty)
    try await harness.auth.signOut()
    let error = await #expect(throws: AuthError.self) { try await harness.auth.signInWithPasskey(using: device) }
    #expect(error?.code == .noPasskey)
    #expect(harness.auth.currentUser == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func anAuthenticatorWithoutAPasskeyForTheRelyingPartySaysSo(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signInWithPasskey(using: try Self.authenticator(harness))
    }
    #expect(error?.code == .noPasskey)
    #expect(await harness.shownState() == .signedOut(.initial))
  }

  @Test(arguments: BackendKind.allCases)
  func aPageOfAnotherSiteCannotUseThePasskeys(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    let elsewhere = try DevelopmentPasskeyAuthenticator(directory: nil, origin: "https://evil.example")
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.enrollPasskey(named: "Laptop", using: elsewhere)
    }
    #expect(error?.code == .relyingPartyMismatch)
    #expect(harness.auth.currentUser?.passkeys.isEmpty == true)
  }

  @Test func aDeclinedSheetChangesNothing() async throws {
    let harness = Harness(.embedded)
    let declining = try DevelopmentPasskeyAuthenticator(
      directory: nil,
      choose: { _ in
        throw AuthError(.userCancelled, "The person closed the passkey sheet.")
      })
    try await harness.signUp()
    try await harness.auth.enrollPasskey(named: "Laptop", using: declining)
    try await harness.auth.signOut()
    let error = await #expect(throws: AuthError.self) { try await harness.auth.signInWithPasskey(using: declining) }
    #expect(error?.code == .userCancelled)
    #expect(await harness.shownState() == .signedOut(.userRequested))
  }

  @Test func theDevelopmentAuthenticatorKeepsItsPasskeysInItsFolder() async throws {
    let folder = try TemporaryDirectory()
    let harness = Harness(.embedded)
    try await harness.signUp()
    try await harness.auth.enrollPasskey(named: "Laptop", using: DevelopmentPasskeyAuthenticator(directory: folder.url))
    try await harness.auth.signOut()
    let reopened = try DevelopmentPasskeyAuthenticator(directory: folder.url)
    #expect(try await harness.auth.signInWithPasskey(using: reopened).user.email == "ada@example.com")
    let file = folder.url.appendingPathComponent("passkeys.json")
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(!(await reopened.passkeys().description.contains("privateKey")))
  }
}
