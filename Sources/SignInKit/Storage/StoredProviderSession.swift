import Foundation

/// What a ``ProviderTokenStore`` keeps of an identity provider's session: the refresh token,
/// and the scopes granted and the ID token with it, so a restored session knows what it may
/// call without asking the issuer. Stored as JSON; a bare token (what earlier versions stored)
/// reads as a session with no scopes known.
///
/// - Concurrency: `Sendable` value; its description never shows a token.
struct StoredProviderSession: Sendable, Equatable, Codable, CustomStringConvertible {
  var refreshToken: String
  /// The granted scopes, space-separated as the issuer says them.
  var scope: String?
  var idToken: String?

  init(refreshToken: String, scope: String?, idToken: String?) {
    self.refreshToken = refreshToken
    self.scope = scope
    self.idToken = idToken
  }

  /// What a store holds: this record's JSON, or a bare refresh token.
  init(stored: String) {
    if stored.hasPrefix("{"),
      let record = try? JSONDecoder().decode(StoredProviderSession.self, from: Data(stored.utf8))
    {
      self = record
    } else {
      self.init(refreshToken: stored, scope: nil, idToken: nil)
    }
  }

  /// The JSON a store keeps.
  var encoded: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? refreshToken
  }

  var description: String { "StoredProviderSession(scope: \(scope ?? "unknown"), tokens redacted)" }
}
