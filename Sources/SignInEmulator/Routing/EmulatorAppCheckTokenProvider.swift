import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import SignInKit

/// The App Check provider for a server started with `signin serve --app-check-secret SECRET`:
/// it mints the tokens ``EmulatorAppCheck`` accepts (a JWT signed with HMAC-SHA256 under the
/// secret, for the project, expiring after ``lifetime``; a limited-use one carries a `jti`),
/// and counts how many it made. `signin --backend emulator --app-check-secret SECRET` and the
/// tests use it; a real app plugs in an adapter over Firebase's App Check instead.
///
/// - Concurrency: `Sendable`; a lock guards the counts.
package final class EmulatorAppCheckTokenProvider: AppCheckTokenProvider {
  private let secret: [UInt8]
  private let projectID: String
  /// How long each token is valid.
  package let lifetime: Duration
  private let now: @Sendable () -> Date
  private let counts = Locked((tokens: 0, limitedUse: 0))

  package init(
    secret: String, projectID: String, lifetime: Duration = .seconds(3600),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.secret = Array(secret.utf8)
    self.projectID = projectID
    self.lifetime = lifetime
    self.now = now
  }

  /// How many tokens it made: reusable ones and limited-use ones.
  package var made: (tokens: Int, limitedUse: Int) { counts.withLock { $0 } }

  package func token(forcingRefresh: Bool) async throws -> AppCheckToken {
    counts.withLock { $0.tokens += 1 }
    return try mint(once: false)
  }

  package func limitedUseToken() async throws -> AppCheckToken {
    counts.withLock { $0.limitedUse += 1 }
    return try mint(once: true)
  }

  private func mint(once: Bool) throws -> AppCheckToken {
    let issuedAt = now()
    let expiresAt = issuedAt.addingTimeInterval(lifetime.seconds)
    var claims: [String: JSONValue] = [
      "iss": .string("https://firebaseappcheck.googleapis.com/12345"),
      "aud": .array([.string("projects/12345"), .string("projects/\(projectID)")]),
      "sub": .string("1:12345:ios:test"), "iat": .number(issuedAt.timeIntervalSince1970.rounded(.down)),
      "exp": .number(expiresAt.timeIntervalSince1970.rounded(.down)),
    ]
    if once { claims["jti"] = .string(Base64URL.encode(try Crypto.randomBytes(12))) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    let payload = Base64URL.encode(Array(try encoder.encode(JSONValue.object(claims))))
    let signature = Base64URL.encode(Crypto.hmacSHA256(key: secret, data: Array("\(header).\(payload)".utf8)))
    return AppCheckToken(token: "\(header).\(payload).\(signature)", expiresAt: expiresAt)
  }
}
