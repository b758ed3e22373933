import Foundation
import SignInKitEmbedded
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// An `Auth` built for an Identity Platform tenant, on every backend: its users are the
/// tenant's, its session is kept apart from the project's and other tenants', and a token or a
/// stored session of another tenant is refused.
@Suite(.timeLimit(.minutes(3)))
struct AuthTenantTests {
  static let tenant = "shop-1a2b"

  /// An `Auth` over the same store as `harness`, for the project's own users (`tenantID` nil)
  /// or another tenant: a backend of its own, or, served, a client of the same server.
  static func neighbour(of harness: Harness, tenantID: String?) throws -> Auth {
    let backend: any AuthBackend
    switch harness.kind {
    case .scripted: backend = ScriptedBackend(tenantID: tenantID, now: { harness.clock.date })
    case .embedded:
      var configuration = Harness.embeddedConfiguration(tokenLifetime: Harness.tokenLifetime)
      configuration.tenantID = tenantID
      backend = try EmbeddedBackend(directory: nil, configuration: configuration, now: { harness.clock.date })
    case .served:
      let served = harness.backendUnderTest as! ServedBackend
      var client = try FirebaseBackend.emulator(host: served.server!.host, projectID: "demo-signinkit")
      client.tenantID = tenantID
      backend = client
    case .inProcess:
      // The same service, another tenant.
      var client = (harness.backendUnderTest as! ServedBackend).firebase
      client.tenantID = tenantID
      backend = client
    }
    let clock = harness.clock
    return Auth(backend: backend, store: harness.store, clock: clock, now: { clock.date })
  }

  /// A backend that says it serves `claimed` while its tokens name the tenant of `wrapped`.
  final class ClaimsAnotherTenant: AuthBackendDecorator {
    let wrapped: any AuthBackend
    let claimed: String?
    init(_ wrapped: any AuthBackend, claiming claimed: String?) {
      self.wrapped = wrapped
      self.claimed = claimed
    }
    var tenantID: String? { claimed }
    func intercept<Result: Sendable>(
      _ call: AuthBackendCall, forward: () async throws -> Result
    ) async throws -> Result { try await forward() }
  }

  @Test(arguments: BackendKind.allCases)
  func aTenantsUsersSignInToTheTenantOnly(kind: BackendKind) async throws {
    let harness = Harness(kind, tenantID: Self.tenant)
    #expect(harness.auth.tenantID == Self.tenant)
    let signedUp = try await harness.signUp()
    #expect(try await harness.auth.idTokenResult().tenantID == Self.tenant)
    try await harness.auth.signOut()
    #expect(
      try await harness.auth.signIn(email: "ada@example.com", password: "correct horse").user.uid
        == signedUp.user.uid)

    // The project's own users are others: the same email is a new account there.
    let project = try Self.neighbour(of: harness, tenantID: nil)
    let there = try await project.signUp(email: "ada@example.com", password: "correct horse")
    #expect(there.user.uid != signedUp.user.uid)
    #expect(try await project.idTokenResult().tenantID == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func eachTenantsSessionIsKeptApartInTheStore(kind: BackendKind) async throws {
    let harness = Harness(kind, tenantID: Self.tenant)
    let signedUp = try await harness.signUp()
    await harness.auth.shutdown()

    let project = try Self.neighbour(of: harness, tenantID: nil)
    #expect(try await project.restorePreviousSignIn() == nil)
    let other = try Self.neighbour(of: harness, tenantID: "other-9z8y")
    #expect(try await other.restorePreviousSignIn() == nil)

    let clock = harness.clock
    let relaunched = Auth(backend: harness.backendUnderTest, store: harness.store, clock: clock, now: { clock.date })
    #expect(try await relaunched.restorePreviousSignIn()?.uid == signedUp.user.uid)
  }

  @Test(arguments: BackendKind.allCases)
  func aTokenOfAnotherTenantIsRefusedAtSignIn(kind: BackendKind) async throws {
    let harness = Harness(kind, tenantID: Self.tenant)
    let clock = harness.clock
    let auth = Auth(
      backend: ClaimsAnotherTenant(harness.backendUnderTest, claiming: "other-9z8y"), store: harness.store,
      clock: clock, now: { clock.date })
    let error = await #expect(throws: AuthError.self) {
      try await auth.signUp(email: "ada@example.com", password: "correct horse")
    }
    #expect(error?.code == .tenantMismatch)
    #expect(error?.message.contains("tenant \(Self.tenant)") == true)
    #expect(auth.currentUser == nil)
    #expect(try harness.store.scoped(toTenant: "other-9z8y").load() == nil)
  }

  /// A store that keeps every session in one place (the protocol's default scoping) still
  /// never hands a project's `Auth` a tenant's session, and does not lose it either.
  @Test(arguments: BackendKind.allCases)
  func aStoredSessionOfAnotherTenantIsRefusedAndKept(kind: BackendKind) async throws {
    let store = RecordingSessionStore()
    let harness = Harness(kind, store: store, tenantID: Self.tenant)
    try await harness.signUp()
    await harness.auth.shutdown()

    let project = try Self.neighbour(of: harness, tenantID: nil)
    let error = await #expect(throws: AuthError.self) { try await project.restorePreviousSignIn() }
    #expect(error?.code == .tenantMismatch)
    #expect(project.currentUser == nil)
    #expect(try store.load() != nil, "the tenant's session is still there for its own Auth")
  }
}
