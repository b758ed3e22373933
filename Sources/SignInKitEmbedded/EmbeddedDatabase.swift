import Foundation
import SignInKit

/// Everything `EmbeddedBackend` keeps, as one JSON document written atomically.
struct EmbeddedDatabase: Codable, Sendable {
  struct Account: Codable, Sendable {
    var uid: String
    var email: String?
    var password: PasswordHash?
    var displayName: String?
    var photoURL: URL?
    var emailVerified = false
    var disabled = false
    /// Linked identity providers (not `password`, which is derived from `password`).
    var federated: [ProviderInfo] = []
    var createdAt: Date
    var lastLoginAt: Date
    /// ID tokens issued before this instant are revoked (`TOKEN_EXPIRED`).
    var validSince: Date
  }

  struct RefreshToken: Codable, Sendable {
    var uid: String
    var issuedAt: Date
  }

  struct ActionCode: Codable, Sendable {
    var uid: String
    var kind: String
    var email: String
    var expiresAt: Date
  }

  static let currentFormatVersion = 1

  var formatVersion = currentFormatVersion
  var accounts: [String: Account] = [:]
  /// By SHA-256 (hex) of the token: the tokens themselves are never stored.
  var refreshTokens: [String: RefreshToken] = [:]
  /// By SHA-256 (hex) of the code.
  var actionCodes: [String: ActionCode] = [:]
  var mailbox: [MailboxMessage] = []
}
