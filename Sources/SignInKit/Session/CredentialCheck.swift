/// How `Auth` asks one identity provider whether it still authorizes a user, and hears when it
/// revokes one: the provider passed to ``Auth/restorePreviousSignIn(alongWith:)``, and beneath it
/// the source ``AuthConfiguration/credentialStateSources`` names for that provider.
///
/// - Concurrency: `Sendable` value; its closures may be called from any isolation.
struct CredentialCheck: Sendable {
  /// The state of the user whose id at the provider is the argument; `nil` when it cannot tell.
  let state: @Sendable (String) async throws -> ProviderCredentialState?
  /// A new stream with one element per revocation the provider announces.
  let revocations: @Sendable () -> AsyncStream<Void>

  init(source: any CredentialStateSource) {
    state = { try await source.state(forProviderUserID: $0) }
    revocations = { source.revocations() }
  }

  /// The provider's answer, or when it cannot tell, `beneath`'s; the revocations of both.
  init(provider: any RestorableSignInProvider, beneath: CredentialCheck?) {
    state = { userID in
      if let answer = try await provider.credentialState(forProviderUserID: userID) { return answer }
      return try await beneath?.state(userID)
    }
    let streams: @Sendable () -> [AsyncStream<Void>] = {
      [provider.credentialRevocations] + (beneath.map { [$0.revocations()] } ?? [])
    }
    revocations = {
      AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
        let forwarding = Task {
          await withTaskGroup(of: Void.self) { group in
            for stream in streams() {
              group.addTask { for await _ in stream { continuation.yield() } }
            }
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
      }
    }
  }
}
