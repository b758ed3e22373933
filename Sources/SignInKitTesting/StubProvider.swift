import SignInKit

/// A `SignInProvider` that hands out a fixed credential, optionally after a delay on a clock,
/// and counts how often it was asked and told to sign out.
///
/// - Concurrency: actor.
public actor StubProvider: SignInProvider {
  public let id: ProviderID
  private let result: Result<ProviderCredential, AuthError>
  private let delay: Duration?
  private let clock: any Clock<Duration>
  /// How many times ``credential()`` was called.
  public private(set) var credentialRequests = 0
  /// How many times ``signOut()`` was called.
  public private(set) var signOuts = 0

  /// A provider whose IdP answers with a credential for `subject`: an opaque ID token that
  /// ``ScriptedBackend`` takes as naming its own user. An Apple credential carries a raw nonce,
  /// as `AppleProvider`'s does.
  public init(
    _ id: ProviderID = .google, subject: String = "subject-1", delay: Duration? = nil,
    clock: any Clock<Duration> = ManualClock()
  ) {
    let credential = ProviderCredential(
      providerID: id, idToken: "\(id):\(subject)", rawNonce: id == .apple ? "nonce-\(subject)" : nil)
    self.init(id, result: .success(credential), delay: delay, clock: clock)
  }

  /// A provider whose IdP answers with `result`.
  public init(
    _ id: ProviderID, result: Result<ProviderCredential, AuthError>, delay: Duration? = nil,
    clock: any Clock<Duration> = ManualClock()
  ) {
    self.id = id
    self.result = result
    self.delay = delay
    self.clock = clock
  }

  public func credential() async throws -> ProviderCredential {
    credentialRequests += 1
    if let delay { try await clock.sleep(for: delay) }
    var credential = try result.get()
    // Apple answers each request with a new token for its nonce, and a token works once.
    if credential.providerID == .apple, let nonce = credential.rawNonce, credentialRequests > 1 {
      credential.rawNonce = "\(nonce)-\(credentialRequests)"
    }
    return credential
  }

  public func signOut() async { signOuts += 1 }
}
