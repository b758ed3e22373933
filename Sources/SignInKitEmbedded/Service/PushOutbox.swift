import Foundation
import SignInConcurrency
import SignInCrypto
import SignInWire

/// The silent pushes the emulator would have sent to iOS apps after `verifyIosClient`: each
/// device token's receipt and the secret its push carries, until a `sendVerificationCode`
/// presents the pair (once). Tests read them (`/emulator/v1/projects/P/pushNotifications`) and
/// hand them to the app as APNs would. At most ``limit`` per server, the oldest dropped.
///
/// - Concurrency: `Sendable`; a lock guards the outbox.
package final class PushOutbox: Sendable {
  private let pushes = Locked<[EmulatorPushNotificationsReply.Push]>([])
  package static let limit = 1_000

  /// A receipt for `appToken`, and the push that carries its secret.
  package func send(to appToken: String) throws -> EmulatorPushNotificationsReply.Push {
    let push = EmulatorPushNotificationsReply.Push(
      appToken: appToken, receipt: Base64URL.encode(try Crypto.randomBytes(16)),
      secret: Base64URL.encode(try Crypto.randomBytes(16)))
    pushes.withLock { pushes in
      pushes.append(push)
      if pushes.count > Self.limit { pushes.removeFirst(pushes.count - Self.limit) }
    }
    return push
  }

  /// Every push not yet used, oldest first.
  package var all: [EmulatorPushNotificationsReply.Push] { pushes.withLock { $0 } }

  /// Uses the push of `receipt` when `secret` is its secret.
  ///
  /// - Throws: `INVALID_APP_CREDENTIAL` for an unknown receipt or a wrong secret.
  package func redeem(receipt: String, secret: String?) throws(FirebaseFailure) {
    let redeemed = pushes.withLock { pushes in
      guard let index = pushes.firstIndex(where: { $0.receipt == receipt && $0.secret == secret }) else { return false }
      pushes.remove(at: index)
      return true
    }
    guard redeemed else {
      throw FirebaseFailure(
        .invalidAppCredential, "the receipt is not one this server issued, or its secret does not match")
    }
  }
}
