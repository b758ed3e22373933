import SignInKit

/// A ``DevelopmentPasskeyAuthenticator`` whose sign-ins report a person present but not
/// verified, as a security key without a PIN does: on an account with a second factor, such a
/// passkey is a first factor and the second is asked. Registrations are the authenticator's own.
///
/// - Concurrency: `Sendable` value; each call runs on the wrapped authenticator's actor.
public struct PresenceOnlyPasskeyAuthenticator: PasskeyAuthenticator {
  private let base: DevelopmentPasskeyAuthenticator

  init(_ base: DevelopmentPasskeyAuthenticator) { self.base = base }

  public func register(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistration {
    try await base.register(request)
  }

  public func authenticate(_ request: PasskeyAssertionRequest) async throws -> PasskeyAssertion {
    try await base.authenticate(request, verifyingUser: false)
  }
}
