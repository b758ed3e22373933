import Foundation
import SignInKit
import SignInKitEmbedded
import SignInKitTesting
import Testing

/// `Auth.switchTenant(to:)` on every transport: each tenant keeps its own session, the switch
/// shows a sign-out that says why, and switching back restores the session left behind without
/// asking the backend to sign anyone out.
@Suite struct TenantSwitchTests {
  static let tenant = "acme-x1y2"

  @Test(arguments: FlowBackend.allCases)
  func switchingKeepsEachTenantsSessionApart(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    let ada = try await auth.signUp(email: "ada@example.com", password: "correct horse").user

    var events = auth.events.makeAsyncIterator()
    #expect(try await auth.switchTenant(to: Self.tenant) == nil, "the tenant has no session yet")
    #expect(auth.tenantID == Self.tenant)
    #expect(auth.currentUser == nil)
    var sawSwitch = false
    while !sawSwitch, let event = await events.next() {
      if case .signedOut(.tenantChanged) = event { sawSwitch = true }
    }
    #expect(sawSwitch, "the sign-out says it was a switch")
    // The project's account is not the tenant's.
    await #expect(throws: AuthError.self) { try await auth.signIn(email: "ada@example.com", password: "correct horse") }
    let bob = try await auth.signUp(email: "bob@example.com", password: "battery staple").user
    #expect(try await auth.idTokenResult().tenantID == Self.tenant)

    let back = try await auth.switchTenant(to: nil)
    #expect(back?.uid == ada.uid, "the project's session was kept")
    #expect(try await auth.idTokenResult(forceRefresh: true).tenantID == nil, "its refresh token still works")
    #expect(try await auth.switchTenant(to: Self.tenant)?.uid == bob.uid)
    #expect(try await auth.idTokenResult(forceRefresh: true).tenantID == Self.tenant)
  }

  @Test func aSignInStillRunningForThePreviousTenantIsSupersededAndKeptOutOfBoth() async throws {
    let clock = ManualClock()
    let scripted = ScriptedBackend(clock: clock)
    let auth = Auth(backend: scripted, store: InMemorySessionStore())
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    scripted.script(.signInWithPassword, .delay(.seconds(5)))
    let signingIn = Task { try await auth.signIn(email: "ada@example.com", password: "correct horse") }
    await clock.sleepers(atLeast: 1)
    try await auth.switchTenant(to: Self.tenant)
    clock.advance(by: .seconds(5))
    let error = try await #require(throws: AuthError.self) { try await signingIn.value }
    #expect(error.code == .superseded)
    #expect(auth.currentUser == nil, "the new tenant did not get the old tenant's user")
    #expect(try await auth.switchTenant(to: nil) == nil, "and the old tenant did not keep it either")
  }

  @Test func aDecoratorThatCannotChangeTenantRefusesAndNothingChanges() async throws {
    let fixture = try FlowFixture(.embedded)
    defer { fixture.stop() }
    let auth = Auth(backend: Passthrough(wrapped: fixture.backend), store: InMemorySessionStore())
    let ada = try await auth.signUp(email: "ada@example.com", password: "correct horse").user
    let error = try await #require(throws: AuthError.self) { try await auth.switchTenant(to: Self.tenant) }
    #expect(error.code == .misconfigured)
    #expect(error.message.contains("forTenant"))
    #expect(auth.tenantID == nil && auth.currentUser?.uid == ada.uid)
  }

  /// A decorator that adds nothing, and does not say how to change tenant.
  struct Passthrough: AuthBackendDecorator {
    let wrapped: any AuthBackend

    func intercept<Result: Sendable>(_ call: AuthBackendCall, forward: () async throws -> Result) async throws
      -> Result
    {
      try await forward()
    }
  }
}
