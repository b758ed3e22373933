/// Tunables of ``Auth``. The defaults match the Firebase iOS SDK.
///
/// - Concurrency: `Sendable` value.
public struct AuthConfiguration: Sendable {
  /// Refresh this long before the ID token expires; a token with less left is refreshed before
  /// ``Auth/idToken(forceRefresh:)`` returns it. Default 5 minutes.
  public var refreshLeadTime: Duration
  /// The shortest wait between two proactive refreshes. A token that lives less than
  /// ``refreshLeadTime`` is refreshed after half its lifetime or after this long, whichever is
  /// later, so short-lived tokens cost a few refreshes a minute, not a loop. Default 30 seconds.
  public var minimumRefreshInterval: Duration
  /// How long ``Auth/restorePreviousSignIn()`` waits for a refresh before settling on a stale
  /// session. Default 10 seconds.
  public var restoreDeadline: Duration
  /// How long ``Auth/restorePreviousSignIn()`` waits, still `restoring`, for a store that is
  /// locked at launch (a keychain before the device's first unlock) to become readable. After
  /// it the state is `signedOut(.storageUnreadable)` with the store's message, the session is
  /// kept, and it is restored as soon as the store can be read. Default 30 seconds.
  public var unlockWait: Duration = .seconds(30)
  /// Delays between retries of a refresh that failed transiently.
  public var retryBackoff: RetryBackoff
  /// Whether ``Auth`` refreshes tokens ahead of expiry by itself. Default `true`.
  public var refreshesAutomatically: Bool
  /// How many events ``Auth/events`` buffers per subscriber before dropping the oldest.
  public var eventBufferLimit: Int
  /// How long a texted code can be used when the backend does not say (Firebase's REST API
  /// does not): ``PhoneVerification/expiresAt`` is this long after the code was sent. Default
  /// 10 minutes, as the embedded backend keeps codes.
  public var phoneCodeLifetime: Duration = .seconds(10 * 60)
  /// The executor the tasks `Auth` starts by itself prefer (SE-0417): the restore and the
  /// refresh that concurrent callers share, and the proactive refresh. Their work, and the
  /// default actors it calls (`Auth` itself, ``UIStateActor``), then runs there. Default `nil`:
  /// the runtime's global concurrent executor. A command-line tool that runs everything on one
  /// thread passes its own, as `signin` does.
  public var taskExecutor: (any TaskExecutor)?
  /// Where ``Auth/restorePreviousSignIn()`` asks, before it shows a stored session, whether the
  /// identity provider the session depends on still authorizes its user; a revoked, unknown or
  /// transferred user is signed out without being shown. Each source's revocations (Apple's
  /// `credentialRevokedNotification`) make `Auth` ask again while the app runs.
  ///
  /// Default: Sign in with Apple's credential state (`SystemAppleIDCredentialState`) where
  /// AuthenticationServices has it, so an app that uses Apple need not pass its provider;
  /// none elsewhere. Tests put a fake here.
  public var credentialStateSources: [ProviderID: any CredentialStateSource] = Self.systemCredentialStateSources

  public init(
    refreshLeadTime: Duration = .seconds(5 * 60), restoreDeadline: Duration = .seconds(10),
    retryBackoff: RetryBackoff = RetryBackoff(), refreshesAutomatically: Bool = true,
    eventBufferLimit: Int = 256, minimumRefreshInterval: Duration = .seconds(30),
    taskExecutor: (any TaskExecutor)? = nil
  ) {
    self.taskExecutor = taskExecutor
    self.minimumRefreshInterval = minimumRefreshInterval
    self.refreshLeadTime = refreshLeadTime
    self.restoreDeadline = restoreDeadline
    self.retryBackoff = retryBackoff
    self.refreshesAutomatically = refreshesAutomatically
    self.eventBufferLimit = eventBufferLimit
  }

  /// The platform's credential-state sources: Apple's where AuthenticationServices has it.
  public static var systemCredentialStateSources: [ProviderID: any CredentialStateSource] {
    #if canImport(AuthenticationServices) && !os(watchOS)
      [.apple: SystemAppleIDCredentialState()]
    #else
      [:]
    #endif
  }
}
