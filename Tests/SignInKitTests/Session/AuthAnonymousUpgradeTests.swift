import Foundation
import SignInConcurrency
import SignInKitTesting
import Testing

@testable import SignInKit

/// The anonymous upgrade that finds the account already exists, on the scripted, embedded and
/// served backends: the conflict carries the account's email and a credential, the recipe signs
/// in to that account, hands the data over and deletes the anonymous user.
@Suite(.timeLimit(.minutes(3)))
struct AuthAnonymousUpgradeTests {
  /// Tim signed in with Apple once, then the app started anonymous.
  static func anonymousBesideTim(_ kind: BackendKind) async throws -> (Harness, tim: User, anonymous: User) {
    let harness = Harness(kind)
    let tim = try await harness.auth.signIn(with: Harness.appleProvider("tim@example.com")).user
    try await harness.auth.signOut()
    let anonymous = try await harness.auth.signInAnonymously().user
    return (harness, tim, anonymous)
  }

  @Test(arguments: BackendKind.allCases)
  func aLinkConflictCarriesTheAccountsEmailAndACredentialThatSignsInToIt(_ kind: BackendKind) async throws {
    let (harness, tim, _) = try await Self.anonymousBesideTim(kind)
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.link(with: Harness.appleProvider("tim@example.com"))
    }
    #expect(error?.code == .credentialAlreadyInUse)
    #expect(error?.email == "tim@example.com")
    let credential = try #require(error?.updatedCredential)
    #expect(credential.providerID == .apple)
    // As FirebaseAuth builds it: a pending token, and no nonce, whose Apple token was spent.
    #expect(credential.pendingToken != nil && credential.rawNonce == nil)
    #expect(try await harness.auth.signIn(with: credential).user.uid == tim.uid)
  }

  /// Firebase refuses an Apple token sent twice ("Duplicate credential received"); so does
  /// every backend here, so a flow that resends one fails in tests as it would in production.
  @Test(arguments: BackendKind.allCases)
  func anAppleTokenSignsInOnce(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let credential = try await Harness.appleProvider("tim@example.com").credential()
    _ = try await harness.auth.signIn(with: credential)
    try await harness.auth.signOut()
    let error = await #expect(throws: AuthError.self) { try await harness.auth.signIn(with: credential) }
    #expect(error?.serverMessage?.contains("Duplicate credential received") == true, "\(String(describing: error))")
    #expect(harness.auth.currentUser == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func theUpgradeSignsInToTheExistingAccountHandsTheDataOverAndDeletesTheAnonymousUser(_ kind: BackendKind)
    async throws
  {
    let (harness, tim, anonymous) = try await Self.anonymousBesideTim(kind)
    let handedOver = Locked<[String]>([])
    let outcome = try await harness.auth.upgradeAnonymousUser(with: Harness.appleProvider("tim@example.com")) {
      from, to in handedOver.withLock { $0.append("\(from.uid) → \(to.uid)") }
    }
    guard case .signedInToExistingAccount(let result, let deleted) = outcome else {
      Issue.record("expected the existing account, got \(outcome)")
      return
    }
    #expect(result.user.uid == tim.uid)
    #expect(deleted)
    #expect(handedOver.withLock { $0 } == ["\(anonymous.uid) → \(tim.uid)"])
    #expect(harness.auth.currentUser?.uid == tim.uid)
    if kind == .scripted {
      #expect(harness.backend.calls.filter { $0.call == .delete }.count == 1)
    } else {
      let gone = await #expect(throws: AuthError.self) { try await harness.controls.deleteUser(uid: anonymous.uid) }
      #expect(gone?.code == .userNotFound)
    }
  }

  @Test(arguments: BackendKind.allCases)
  func aCredentialNobodyHasIsLinkedAndTheUIDStays(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let anonymous = try await harness.auth.signInAnonymously().user
    let outcome = try await harness.auth.upgradeAnonymousUser(with: Harness.appleProvider("new@example.com")) {
      _, _ in Issue.record("nothing to hand over")
    }
    guard case .linked(let result) = outcome else {
      Issue.record("expected a link, got \(outcome)")
      return
    }
    #expect(result.user.uid == anonymous.uid)
    #expect(!result.user.isAnonymous)
  }

  @Test func whenTheHandOverFailsTheAnonymousUserIsKept() async throws {
    struct Refused: Error {}
    let (harness, tim, _) = try await Self.anonymousBesideTim(.embedded)
    await #expect(throws: Refused.self) {
      try await harness.auth.upgradeAnonymousUser(with: Harness.appleProvider("tim@example.com")) { _, _ in
        throw Refused()
      }
    }
    // Tim is signed in; the anonymous account was not deleted.
    #expect(harness.auth.currentUser?.uid == tim.uid)
  }

  @Test func onlyAnAnonymousUserIsUpgraded() async throws {
    let harness = Harness(.scripted)
    _ = try await harness.signUp()
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.upgradeAnonymousUser(with: Harness.appleProvider()) { _, _ in }
    }
    #expect(error?.code == .operationNotAllowed)
  }
}
