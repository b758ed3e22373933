#if canImport(AuthenticationServices) && !os(watchOS)
  import AuthenticationServices
  import Foundation

  /// ``CredentialStateSource`` over `ASAuthorizationAppleIDProvider`: the state of a user's
  /// Apple ID credential, and `credentialRevokedNotification` as ``revocations()``.
  ///
  /// - Concurrency: `Sendable`; any isolation. The system's completion handler may run on any
  ///   thread; it only resumes a continuation.
  public struct SystemAppleIDCredentialState: CredentialStateSource {
    public init() {}

    public func state(forProviderUserID providerUserID: String) async throws -> ProviderCredentialState {
      let state = try await ASAuthorizationAppleIDProvider().credentialState(forUserID: providerUserID)
      switch state {
      case .authorized: return .authorized
      case .revoked: return .revoked
      case .transferred: return .transferred
      case .notFound: return .notFound
      @unknown default: return .notFound
      }
    }

    public func revocations() -> AsyncStream<Void> {
      AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
        let watcher = Task {
          let name = ASAuthorizationAppleIDProvider.credentialRevokedNotification
          for await _ in NotificationCenter.default.notifications(named: name) { continuation.yield() }
          continuation.finish()
        }
        continuation.onTermination = { _ in watcher.cancel() }
      }
    }
  }
#endif
