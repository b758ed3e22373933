import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import SignInWire

/// App Check as `signin serve --app-check-secret` enforces it on client calls: each must carry
/// `X-Firebase-AppCheck`, a JWT signed with HMAC-SHA256 under the secret, for this project
/// (`aud` names `projects/PROJECT`), not expired; a limited-use token (one with a `jti`) works
/// once. What real App Check tokens prove (an attested app) a test stands in for with the
/// secret; the path through ``FirebaseBackend`` and the refusals are the same.
///
/// - Concurrency: `Sendable`; a lock guards the used token ids.
package final class EmulatorAppCheck: Sendable {
  private let secret: [UInt8]
  private let projectID: String
  private let now: @Sendable () -> Date
  /// The limited-use token ids seen, each with its token's expiry: kept until the token could
  /// not be used anyway.
  private let used = Locked<[String: Double]>([:])

  package init(secret: String, projectID: String, now: @escaping @Sendable () -> Date = { Date() }) {
    self.secret = Array(secret.utf8)
    self.projectID = projectID
    self.now = now
  }

  /// Refuses a missing, forged, foreign, expired or replayed token as Firebase does.
  func check(_ header: String?) throws(FirebaseFailure) {
    guard let header, let token = try? JSONWebToken(decoding: header), token.header["alg"]?.string == "HS256"
    else { throw .appCheckRefused }
    let expected = Crypto.hmacSHA256(key: secret, data: Array(token.signingInput.utf8))
    guard Crypto.constantTimeEqual(expected, token.signature) else { throw .appCheckRefused }
    let audiences = token.claims["aud"]?.array?.compactMap(\.string) ?? token.claims["aud"]?.string.map { [$0] } ?? []
    guard audiences.contains("projects/\(projectID)"), let expiry = token.claims["exp"]?.number,
      expiry > now().timeIntervalSince1970
    else { throw .appCheckRefused }
    if let id = token.claims["jti"]?.string {
      let now = now().timeIntervalSince1970
      let fresh = used.withLock { used in
        if used.count >= 10_000 { used = used.filter { $0.value > now } }
        guard used.count < 10_000, used[id] == nil else { return false }
        used[id] = expiry
        return true
      }
      // A replay is refused; so is a token past 10,000 unexpired ones, rather than forgetting one.
      guard fresh else { throw .appCheckRefused }
    }
  }
}
