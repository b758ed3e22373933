import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// How a first factor ends (a session, or a second factor to answer) and the pending steps a
/// sign-in waits on between two calls.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor (`EmbeddedBackend.steps`).
struct SignInSteps {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer
  let throttle: LoginThrottle

  /// The one way a first factor ends: `change` records what it proved (in the same transaction
  /// whatever follows, so a spent email link stays spent), then an account with a second factor
  /// answers `AuthError/Code/secondFactorRequired` with a pending credential, and any other gets
  /// its session. Every first factor goes through here (password, email link, identity
  /// provider, phone, passkey); a custom token does not, as in Firebase, where a custom token is
  /// the developer's own proof.
  func finishFirstFactor(
    _ provider: ProviderID, _ change: () throws -> FirstFactor
  ) throws -> UnsignedReply<SignInResponse> {
    let (factor, response) = try store.transaction { () throws -> (FirstFactor, UnsignedReply<SignInResponse>?) in
      let factor = try change()
      let factors = try store.account(uid: factor.uid)?.secondFactors ?? []
      guard factor.isLink || factor.provesSecondFactor || factors.isEmpty else { return (factor, nil) }
      try store.updateAccount(uid: factor.uid) { $0.lastLoginAt = now() }
      let tokens = try self.tokens.mintTokens(for: factor.uid, provider: provider)
      return (
        factor,
        UnsignedReply(tokens: tokens) {
          SignInResponse(localID: factor.uid, email: factor.email, tokens: $0, isNewUser: factor.isNewUser)
        }
      )
    }
    guard let response else { throw try secondFactorChallenge(for: factor.uid, signingInWith: provider) }
    if let account = try store.account(uid: factor.uid) {
      throttle.forgetLoginFailures(LoginThrottle.throttleKey(of: account))
    }
    return response
  }

  /// Records a pending sign-in for `uid`, which its second step completes, and returns the
  /// `AuthError/Code/secondFactorRequired` that carries it.
  func secondFactorChallenge(for uid: String, signingInWith provider: ProviderID) throws -> AuthError {
    let pending = Base64URL.encode(try Crypto.randomBytes(24))
    try addPending(
      PendingSignIn(uid: uid, provider: provider), kind: PendingSignIn.kind, key: pending,
      until: now().addingTimeInterval(EmbeddedBackend.secondFactorWindow))
    return AuthError.secondFactorRequired(
      SecondFactorChallenge(
        factors: try store.existingAccount(uid: uid).info.secondFactors, firstFactor: provider,
        pendingCredential: pending))
  }

  /// Records a pending step for its account, keyed by `key`, until `deadline`: expired steps
  /// go, and the account's oldest beyond the configured number per account (first factors that
  /// never finish must not pile up).
  ///
  /// - Throws: `TOO_MANY_ATTEMPTS_TRY_LATER` when the table is full.
  ///
  /// - Parameter owner: whose steps `perAccount` counts; by default the step's account. A step
  ///   of no account yet (a passkey sign-in) names itself, so no caller's steps evict another's.
  /// - Parameter text: the text message carrying the step's code, kept with it in the outbox.
  func addPending<Step: Encodable>(
    _ step: Step, kind: String, key: String, until deadline: Date, owner: String? = nil,
    text: PhoneVerificationCode? = nil
  ) throws where Step: PendingStep {
    let limits = configuration.limits
    guard
      try store.pendingSteps.add(
        kind, key: key, uid: owner ?? step.uid, expiresAt: deadline, record: step, now: now(),
        perAccount: limits.pendingPerAccount, total: limits.pending, text: text)
    else {
      throw AuthError(
        firebase: .tooManyAttemptsTryLater,
        message: "\(limits.pending) second-factor steps are waiting; try again in a few minutes.")
    }
  }
}
