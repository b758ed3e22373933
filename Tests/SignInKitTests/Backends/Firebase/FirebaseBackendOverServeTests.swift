import Foundation
import SignInConcurrency
import SignInEmulator
import SignInKitEmbedded
import SignInKitTesting
import SignInWire
import Testing

@testable import SignInKit

/// App Check and app verification end to end: `Auth` over `FirebaseBackend`, over HTTP, against
/// the server `signin serve` runs, started to require App Check tokens or receiving an iOS
/// app's silent-push proof. Nothing here is faked but the tokens' signer (a test key) and APNs
/// (the server's outbox, read over HTTP and handed to the app as a push).
@Suite(.timeLimit(.minutes(3)))
struct FirebaseBackendOverServeTests {
  static let secret = "app-check-test-secret"

  /// A server that requires App Check, its manual clock, and a client of it.
  struct Served {
    let clock = ManualClock()
    let server: FirebaseEmulatorServer
    let projectID: String

    init(appCheckSecret: String? = FirebaseBackendOverServeTests.secret) throws {
      let clock = self.clock
      let embedded = try EmbeddedBackend(
        directory: nil, configuration: Harness.embeddedConfiguration(tokenLifetime: Harness.tokenLifetime),
        now: { clock.date })
      projectID = embedded.configuration.projectID
      server = try FirebaseEmulatorServer(backend: embedded, port: 0, appCheckSecret: appCheckSecret)
    }

    func backend(
      appCheck: FirebaseBackend.AppCheck? = nil, transport: any HTTPTransport = URLSessionTransport()
    ) throws -> FirebaseBackend {
      var backend = try FirebaseBackend.emulator(host: server.host, projectID: projectID, transport: transport)
      backend.appCheck = appCheck
      let clock = clock
      backend.now = { clock.date }
      return backend
    }

    func auth(_ backend: FirebaseBackend) -> Auth {
      let clock = clock
      return Auth(backend: backend, store: InMemorySessionStore(), clock: clock, now: { clock.date })
    }

    func provider(secret: String = FirebaseBackendOverServeTests.secret, lifetime: Duration = .seconds(3600))
      -> EmulatorAppCheckTokenProvider
    {
      let clock = clock
      return EmulatorAppCheckTokenProvider(secret: secret, projectID: projectID, lifetime: lifetime) { clock.date }
    }
  }

  // MARK: - App Check

  @Test func aProjectThatEnforcesAppCheckRefusesACallWithoutAToken() async throws {
    let served = try Served()
    defer { served.server.stop() }
    let auth = served.auth(try served.backend())
    let error = await #expect(throws: AuthError.self) {
      try await auth.signUp(email: "ada@example.com", password: "correct horse")
    }
    #expect(error?.code == .appCheckFailed)
    #expect(error?.message.contains("App Check") == true)
    #expect(auth.currentUser == nil)
  }

  @Test func everyCallCarriesTheTokenAndAnExpiredOneIsReplaced() async throws {
    let served = try Served()
    defer { served.server.stop() }
    let provider = served.provider(lifetime: .seconds(600))
    let auth = served.auth(try served.backend(appCheck: .init(provider: provider)))
    let signedUp = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    // Secure Token calls need it too: a refresh.
    _ = try await auth.idToken(forceRefresh: true)
    #expect(provider.made.tokens == 1)

    // The token has expired at the server: a new one is asked for, and the calls go on.
    served.clock.advance(by: .seconds(1200))
    _ = try await auth.idToken(forceRefresh: true)
    try await auth.signOut()
    #expect(try await auth.signIn(email: "ada@example.com", password: "correct horse").user.uid == signedUp.user.uid)
    #expect(provider.made.tokens == 2)
  }

  @Test func aRefusedTokenIsReplacedOnceThenReportedAsItsOwnError() async throws {
    let served = try Served()
    defer { served.server.stop() }
    let forged = served.provider(secret: "not-the-projects-key")
    let auth = served.auth(try served.backend(appCheck: .init(provider: forged)))
    let error = await #expect(throws: AuthError.self) {
      try await auth.signUp(email: "ada@example.com", password: "correct horse")
    }
    #expect(error?.code == .appCheckFailed)
    #expect(forged.made.tokens == 2, "one retry with a refreshed token, then the error")
  }

  @Test func limitedUseTokensWorkOnceEach() async throws {
    let served = try Served()
    defer { served.server.stop() }
    let provider = served.provider()
    let auth = served.auth(try served.backend(appCheck: .init(provider: provider, limitedUse: true)))
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    let afterSignUp = provider.made.limitedUse
    _ = try await auth.idToken(forceRefresh: true)
    #expect(provider.made.limitedUse == afterSignUp + 1, "a new token for each call")
    #expect(provider.made.tokens == 0)

    // A limited-use token sent twice is refused the second time.
    let replaying = try served.backend(
      appCheck: .init(provider: ReplayingProvider(try await provider.limitedUseToken()), limitedUse: true))
    let request = PasswordSignInRequest(email: "ada@example.com", password: "correct horse")
    _ = try await replaying.signInWithPassword(request)
    let error = await #expect(throws: AuthError.self) { try await replaying.signInWithPassword(request) }
    #expect(error?.code == .appCheckFailed)
  }

  /// Hands out the same token every time: a replay.
  struct ReplayingProvider: AppCheckTokenProvider {
    let token: AppCheckToken
    init(_ token: AppCheckToken) { self.token = token }
    func token(forcingRefresh: Bool) async throws -> AppCheckToken { token }
    func limitedUseToken() async throws -> AppCheckToken { token }
  }

  // MARK: - App verification by silent push

  /// A transport that plays APNs: once `verifyIosClient` has been answered, it reads the push
  /// the server would have sent from its outbox and hands it to `deliver`, as the app delegate
  /// would hand it to the verifier, after the reply has reached the client.
  final class PushingTransport: HTTPTransport {
    let inner = URLSessionTransport()
    let outbox: @Sendable () async throws -> [EmulatorPushNotificationsReply.Push]
    let deliver: @Sendable (EmulatorPushNotificationsReply.Push) -> Void
    let deliveries = Locked<[Task<Void, Never>]>([])

    init(
      outbox: @escaping @Sendable () async throws -> [EmulatorPushNotificationsReply.Push],
      deliver: @escaping @Sendable (EmulatorPushNotificationsReply.Push) -> Void
    ) {
      self.outbox = outbox
      self.deliver = deliver
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      let response = try await inner.send(request)
      if request.url.path.hasSuffix("accounts:verifyIosClient"), response.status == 200 {
        let task = Task { [outbox, deliver] in
          if let push = try? await outbox().last { deliver(push) }
        }
        deliveries.withLock { $0.append(task) }
      }
      return response
    }
  }

  @Test func aSilentPushProvesTheAppToTheServer() async throws {
    let served = try Served(appCheckSecret: nil)
    defer { served.server.stop() }
    let reader = try served.backend()
    let verifier = Locked<SilentPushAppVerifier?>(nil)
    let delivered = Locked<[String?]>([])
    let transport = PushingTransport(
      outbox: { try await reader.call(FirebaseAPI.pushNotifications, NoBody()).pushNotifications ?? [] },
      deliver: { push in
        delivered.withLock { $0.append(push.appToken) }
        let payload = #"{"receipt":"\#(push.receipt ?? "")","secret":"\#(push.secret ?? "")"}"#
        _ = verifier.withLock { $0 }?.canHandle(notification: [SilentPushAppVerifier.notificationKey: payload])
      })
    var backend = try served.backend(transport: transport)
    // The wait for the push is on a clock nobody advances: only the push ends it.
    let pushes = SilentPushAppVerifier(
      deviceToken: { .init(token: Data([0xfe, 0xed, 0xfa, 0xce]), isSandbox: true) }, clock: ManualClock())
    verifier.withLock { $0 = pushes }
    backend.appVerifier = pushes
    let auth = served.auth(backend)

    let verification = try await auth.verifyPhoneNumber("+15555550100")
    #expect(delivered.withLock { $0 } == ["feedface"], "the push went to the app's device token")
    // A redeemed receipt leaves the outbox: it cannot prove a second request.
    #expect(try await reader.call(FirebaseAPI.pushNotifications, NoBody()).pushNotifications ?? [] == [])
    let code = try #require(
      try await reader.emulatorTextMessages().first { $0.verificationID == verification.verificationID }?.code)
    #expect(try await auth.signIn(with: verification, code: code).user.phoneNumber == "+15555550100")
  }

  @Test func aForgedPushSecretIsRefusedByTheServer() async throws {
    let served = try Served(appCheckSecret: nil)
    defer { served.server.stop() }
    let reader = try served.backend()
    let verifier = Locked<SilentPushAppVerifier?>(nil)
    let transport = PushingTransport(
      outbox: { try await reader.call(FirebaseAPI.pushNotifications, NoBody()).pushNotifications ?? [] },
      deliver: { push in
        let payload = #"{"receipt":"\#(push.receipt ?? "")","secret":"forged"}"#
        _ = verifier.withLock { $0 }?.canHandle(notification: [SilentPushAppVerifier.notificationKey: payload])
      })
    var backend = try served.backend(transport: transport)
    let pushes = SilentPushAppVerifier(
      deviceToken: { .init(token: Data([0xfe, 0xed]), isSandbox: false) }, clock: ManualClock())
    verifier.withLock { $0 = pushes }
    backend.appVerifier = pushes
    let auth = served.auth(backend)
    let error = await #expect(throws: AuthError.self) { try await auth.verifyPhoneNumber("+15555550100") }
    #expect(error?.code == .appVerificationFailed)
    #expect(try await reader.emulatorTextMessages().isEmpty, "nothing was texted")
  }
}
