import Foundation
import SignInConcurrency

/// Proves an iOS app with an APNs silent push, as FirebaseAuth does: the app's device token goes
/// to `accounts:verifyIosClient`, Firebase answers with a receipt and pushes the matching secret
/// to the device, and the app hands that push here (``canHandle(notification:)``). When there is
/// no device token, Firebase refuses it, or the push does not come within the time Firebase
/// suggests, the ``fallback`` proves the app instead (reCAPTCHA), or the call fails with
/// ``AuthError/Code/appVerificationFailed``.
///
/// ```swift
/// let pushes = SilentPushAppVerifier(
///   deviceToken: { try await appDelegate.apnsToken() },   // from didRegisterForRemoteNotifications
///   fallback: RecaptchaAppVerifier(callbackScheme: "app-1-1234-ios-abcd"))
/// backend.appVerifier = pushes
/// // In application(_:didReceiveRemoteNotification:fetchCompletionHandler:):
/// if pushes.canHandle(notification: userInfo) { completion(.noData); return }
/// ```
///
/// - Concurrency: `Sendable`; a lock guards the receipts that wait for their push. Pushes may be
///   handed over from any thread, before or after the wait for them begins.
public final class SilentPushAppVerifier: PhoneAppVerifier, Sendable {
  /// The app's APNs device token, and which APNs environment issued it.
  ///
  /// - Concurrency: `Sendable` value.
  public struct DeviceToken: Sendable, Equatable {
    public var token: Data
    /// A development build's token, from APNs' sandbox.
    public var isSandbox: Bool

    public init(token: Data, isSandbox: Bool) {
      self.token = token
      self.isSandbox = isSandbox
    }

    /// The token as Firebase takes it: lowercase hex.
    public var hex: String { token.map { String(format: "%02x", $0) }.joined() }
  }

  /// Where the secret of a receipt arrives, and the pushes that came before anyone waited for
  /// them (a push can beat `verifyIosClient`'s reply to the app), newest kept.
  private let waiting = Locked<(waiters: [String: CallbackContinuation<String>], early: [String: String])>(([:], [:]))
  private let deviceToken: @Sendable () async throws -> DeviceToken
  /// What proves the app when the push cannot.
  public let fallback: (any PhoneAppVerifier)?
  private let clock: any Clock<Duration>

  /// - Parameters:
  ///   - deviceToken: the app's current APNs device token; throw when it has none (the app
  ///     did not register for remote notifications, or the person declined).
  ///   - fallback: what proves the app when the push cannot, usually ``RecaptchaAppVerifier``.
  ///   - clock: measures the wait for the push.
  public init(
    deviceToken: @escaping @Sendable () async throws -> DeviceToken, fallback: (any PhoneAppVerifier)? = nil,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.deviceToken = deviceToken
    self.fallback = fallback
    self.clock = clock
  }

  /// Takes a remote notification the app received: `true` when it was Firebase's silent push
  /// for a verification (the app then does nothing else with it).
  ///
  /// The push's `com.google.firebase.auth` entry (a dictionary, or the same as a JSON string)
  /// carries the `receipt` and its `secret`.
  public func canHandle(notification userInfo: [AnyHashable: Any]) -> Bool {
    var entry = userInfo[Self.notificationKey] as? [String: Any]
    if let text = userInfo[Self.notificationKey] as? String {
      entry = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }
    guard let receipt = entry?["receipt"] as? String, let secret = entry?["secret"] as? String else { return false }
    return deliver(receipt: receipt, secret: secret)
  }

  /// The entry of a remote notification that carries Firebase's verification push.
  public static let notificationKey = "com.google.firebase.auth"

  /// Hands over the secret of `receipt`, to the verification that waits for it or, when none
  /// does yet, kept for the one that will (at most 16 are kept).
  @discardableResult
  func deliver(receipt: String, secret: String) -> Bool {
    let waiter = waiting.withLock { state -> CallbackContinuation<String>? in
      if let waiter = state.waiters[receipt] { return waiter }
      if state.early.count >= 16, let oldest = state.early.keys.first { state.early[oldest] = nil }
      state.early[receipt] = secret
      return nil
    }
    waiter?.resume(with: .success(secret))
    return true
  }

  public func proof(for backend: FirebaseBackend) async throws -> AppVerificationProof {
    let token: DeviceToken
    do {
      token = try await deviceToken()
    } catch let error as AuthError where error.code.isCancellation {
      throw error
    } catch {
      return try await fallbackProof(for: backend, because: "the app has no APNs device token (\(error))")
    }
    let receipt: String
    let timeout: Duration
    do {
      (receipt, timeout) = try await backend.verifyIosClient(token)
    } catch let error as AuthError where error.code == .appVerificationFailed {
      return try await fallbackProof(for: backend, because: error.message)
    }
    let waiter = CallbackContinuation<String> { AuthError.cancelled }
    let early = waiting.withLock { state -> String? in
      guard let secret = state.early.removeValue(forKey: receipt) else {
        state.waiters[receipt] = waiter
        return nil
      }
      return secret
    }
    if let early { return .silentPush(receipt: receipt, secret: early) }
    defer { _ = waiting.withLock { $0.waiters.removeValue(forKey: receipt) } }
    do {
      let secret = try await Self.waiting(for: waiter, timeout: timeout, on: clock)
      return .silentPush(receipt: receipt, secret: secret)
    } catch is TimeoutError {
      waiter.resume(with: .failure(AuthError.cancelled))
      return try await fallbackProof(
        for: backend, because: "no silent push came within \(timeout.seconds.formatted()) seconds")
    }
  }

  /// The secret `waiter` is given within `timeout`: the push and a timer race as two children
  /// of one group, and the loser is cancelled.
  ///
  /// - Throws: ``TimeoutError`` when `timeout` passes first.
  private static func waiting(
    for waiter: CallbackContinuation<String>, timeout: Duration, on clock: any Clock<Duration>
  ) async throws -> String {
    try await withThrowingTaskGroup(of: String?.self) { group in
      defer { group.cancelAll() }
      group.addTask { try await waiter.value(start: {}) }
      group.addTask {
        try await clock.sleep(for: timeout)
        return nil
      }
      guard let first = try await group.next(), let secret = first else { throw TimeoutError() }
      return secret
    }
  }

  private func fallbackProof(for backend: FirebaseBackend, because reason: String) async throws
    -> AppVerificationProof
  {
    guard let fallback else {
      throw AuthError(
        .appVerificationFailed,
        "The app could not prove itself by silent push: \(reason). Enable push notifications, or give the "
          + "verifier a reCAPTCHA fallback.")
    }
    return try await fallback.proof(for: backend)
  }
}
