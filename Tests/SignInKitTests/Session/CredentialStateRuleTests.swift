import Foundation
import Testing

@testable import SignInKit

/// The table of ``SessionStateMachine/signOutReason(for:of:session:)``: which credential states
/// end which sessions.
@Suite struct CredentialStateRuleTests {
  static func session(signedInWith provider: ProviderID, linked: [ProviderID]) -> StoredSession {
    StoredSession(
      user: User(uid: "u1", providers: linked.map { ProviderInfo(providerID: $0, rawID: "raw-\($0)") }),
      idToken: "i", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 0), signInProvider: provider)
  }

  static let appleSession = session(signedInWith: .apple, linked: [.apple])
  static let passwordWithApple = session(signedInWith: .password, linked: [.password, .apple])
  /// An anonymous account upgraded by linking Apple: Apple is its only method.
  static let upgradedAnonymous = session(signedInWith: .anonymous, linked: [.apple])

  @Test(arguments: [
    (ProviderCredentialState?.some(.authorized), appleSession, SignOutReason?.none),
    // As Apple's sample: the Apple ID on this device no longer knows the user.
    (.notFound, appleSession, .credentialRevoked(.apple)),
    (nil, appleSession, nil),
    (.revoked, appleSession, .credentialRevoked(.apple)),
    (.transferred, appleSession, .credentialTransferred(.apple)),
    (.revoked, upgradedAnonymous, .credentialRevoked(.apple)),
    (.transferred, upgradedAnonymous, .credentialTransferred(.apple)),
    (.revoked, passwordWithApple, nil),
    (.transferred, passwordWithApple, nil),
    (.notFound, passwordWithApple, nil),
  ])
  func aStateEndsOnlyASessionThatDependsOnTheProvider(
    _ state: ProviderCredentialState?, _ session: StoredSession, _ expected: SignOutReason?
  ) {
    #expect(SessionStateMachine.signOutReason(for: state, of: .apple, session: session) == expected)
  }

  @Test(arguments: [
    (appleSession, [ProviderID.apple]), (upgradedAnonymous, [.apple]), (passwordWithApple, [.password]),
  ])
  func aLaunchAsksOnlyTheProvidersTheSessionDependsOn(_ session: StoredSession, _ asked: [ProviderID]) {
    #expect(SessionStateMachine.credentialChecks(for: session) == asked)
  }

  @Test func anotherProvidersStateEndsNothing() {
    #expect(SessionStateMachine.signOutReason(for: .revoked, of: .google, session: Self.appleSession) == nil)
  }
}
