import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit

/// The records `EmbeddedStore` keeps in its tables: accounts, refresh tokens and action codes.
///
/// - Concurrency: a namespace; each record is a `Sendable` value.
package enum EmbeddedDatabase {
  package struct Account: Codable, Sendable {
    /// A new account's uid: 28 random letters and digits, as Firebase's.
    package static func newUID() throws -> String {
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
      return String(try Crypto.randomBytes(28).map { alphabet[Int($0) % alphabet.count] })
    }

    package var uid: String
    package var email: String?
    /// The phone number (E.164) a code sent to it proved, or an administrator set.
    package var phoneNumber: String?
    package var password: PasswordHash?
    package var displayName: String?
    package var photoURL: URL?
    package var emailVerified = false
    package var disabled = false
    /// Linked identity providers (not `password`, which is derived from `password`).
    package var federated: [ProviderInfo] = []
    package var createdAt: Date
    package var lastLoginAt: Date
    /// ID tokens issued before this instant are revoked (`TOKEN_EXPIRED`).
    package var validSince: Date
    /// Custom claims an administrator set (`customAttributes`), put in every ID token.
    package var customClaims: [String: JSONValue]?
    /// Created by a custom token (`customAuth`).
    package var customAuth: Bool?
    /// Enrolled TOTP second factors; `nil` when there are none.
    package var secondFactors: [SecondFactor]?
    /// Signed in with an email link at least once (`emailLinkSignin`): the email is then a
    /// `password` provider even without a password.
    package var emailLinkSignIn: Bool?
    /// When the password was last set (`passwordUpdatedAt`); `nil` in records from before it
    /// was kept, and for accounts without a password.
    package var passwordUpdatedAt: Date?
    /// When a refresh token last made an ID token (`lastRefreshAt`), to the second; a sign-in
    /// counts through ``lastLoginAt``.
    package var lastRefreshAt: Date?
    /// Enrolled passkeys; `nil` when there are none.
    package var passkeys: [Passkey]?

    /// The latest time this account got an ID token: its last sign-in or its last refresh.
    package var lastActiveAt: Date { max(lastLoginAt, lastRefreshAt ?? lastLoginAt) }

    /// Sets the password's hash (or removes it), and when it changed.
    package mutating func setPassword(_ hash: PasswordHash?, at date: Date) {
      password = hash
      passwordUpdatedAt = hash == nil ? nil : date
    }

    /// Whether ``validSince`` revokes a token issued at `issuedAt`. Both count in whole
    /// seconds, as Firebase's `iat` and `validSince` do: a token from the second of the
    /// revocation itself stays valid.
    package func revokes(issuedAt: Date) -> Bool {
      issuedAt.timeIntervalSince1970.rounded(.down) < validSince.timeIntervalSince1970.rounded(.down)
    }
  }

  /// One enrolled second factor: its id, name and when it was added, and either a TOTP base32
  /// secret or (an SMS factor) a phone number with an empty secret.
  package struct SecondFactor: Codable, Sendable {
    package var enrollmentID: String
    package var displayName: String?
    package var secret: String
    /// The number an SMS factor texts its codes to; `nil` for TOTP.
    package var phoneNumber: String?
    package var enrolledAt: Date
    /// The TOTP time step of the last code accepted, so that no code works twice (RFC 6238
    /// §5.2); `nil` before the first.
    package var lastUsedStep: UInt64?
  }

  /// One enrolled passkey: its credential id and COSE public key (base64url), the name the
  /// user gave it, and the signature counter at enrolment. The counter a sign-in checks, and
  /// when the passkey was last used, are its row's in the `passkeys` table (moved there by one
  /// `UPDATE`, not by rewriting the account), read and written in the sign-in's transaction.
  package struct Passkey: Codable, Sendable {
    package var credentialID: String
    package var name: String
    package var publicKey: String
    /// The counter at enrolment; the live one is the row's.
    package var signCount: UInt32
    package var enrolledAt: Date
    /// Kept by versions before the counter had its row; the row's `last_used_at` now.
    package var lastUsedAt: Date?
    package var transports: [String]?
    package var backupEligible: Bool?
  }

  struct RefreshToken: Codable, Sendable {
    var uid: String
    var issuedAt: Date
    /// How the session signed in; older records derive it from the account.
    var provider: ProviderID?
    /// The developer claims of the custom token that started the session, kept in every ID
    /// token it refreshes.
    var claims: [String: JSONValue]?
    /// When the session signed in (every ID token's `auth_time`); records from before it was
    /// kept use the account's last sign-in.
    var authTime: Date?
    /// How many times the session was refreshed; for tests that count refreshes across
    /// processes (`nil` before the first).
    var refreshes: Int?
  }

  struct ActionCode: Codable, Sendable {
    /// The account; empty for a sign-in link to an address with no account yet.
    var uid: String
    var kind: String
    /// The account's email (or the sign-in link's address).
    var email: String
    var expiresAt: Date
    /// For `VERIFY_AND_CHANGE_EMAIL`, the email the code sets.
    var newEmail: String?
  }
}
