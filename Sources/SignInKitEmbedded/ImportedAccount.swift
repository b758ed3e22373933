import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// One account of an import (`accounts:batchCreate`, the Admin SDKs' `import_users`): the
/// account as another system had it, with its password hash already in a form this backend
/// verifies, or a raw password to hash here.
///
/// - Concurrency: `Sendable` value.
package struct ImportedAccount: Sendable {
  package var uid: String
  package var email: String?
  /// E.164, as the upload's `phoneNumber`.
  package var phoneNumber: String?
  package var emailVerified = false
  package var displayName: String?
  package var photoURL: URL?
  package var disabled = false
  package var password: PasswordHash?
  /// A password in clear, hashed at the backend's cost (the emulator's `rawPassword`).
  package var rawPassword: String?
  /// The `customAttributes` JSON object.
  package var customAttributes: String?
  package var providers: [ProviderInfo] = []
  /// SMS second factors: the number, and the enrolment's id, name and date when given.
  package var phoneSecondFactors:
    [(enrollmentID: String?, displayName: String?, phoneNumber: String, enrolledAt: Date?)] =
      []
  package var createdAt: Date?
  package var lastLoginAt: Date?

  package init(uid: String) { self.uid = uid }
}

extension EmbeddedBackend {
  /// Imports `accounts` in one transaction: each one is checked and stored, or refused with a
  /// message under its index while the others are stored (as Firebase's upload does). Refused:
  /// a uid another account has (unless `allowOverwrite`), an email or a provider uid another
  /// account has, a malformed email, reserved custom claims.
  ///
  /// Passwords given in clear are hashed first, outside the transaction's write lock.
  ///
  /// - Returns: the refusals, by index into `accounts`.
  /// - Throws: `AuthError/Code/storage` when the transaction cannot be stored; then nothing is.
  package func adminImport(_ accounts: [ImportedAccount], allowOverwrite: Bool) throws -> [(
    index: Int, message: String
  )] {
    var refusals: [(index: Int, message: String)] = []
    var prepared: [(index: Int, account: EmbeddedDatabase.Account)] = []
    for (index, imported) in accounts.enumerated() {
      do {
        prepared.append((index, try account(from: imported)))
      } catch {
        refusals.append((index, Self.refusal(error)))
      }
    }
    try store.transaction {
      for (index, account) in prepared {
        do {
          try store.transaction {
            if try store.account(uid: account.uid) != nil, !allowOverwrite {
              throw AuthError(
                firebase: .duplicateLocalId, message: "localId belongs to an existing account - can not overwrite.")
            }
            if let email = account.email, try store.emailIsTaken(email, byOtherThan: account.uid) {
              throw AuthError(firebase: .duplicateEmail, message: "email exists in other account in database")
            }
            if let phone = account.phoneNumber, try store.phoneIsTaken(phone, byOtherThan: account.uid) {
              throw AccountRules.phoneExists(phone)
            }
            for link in account.federated {
              if let owner = try store.account(provider: link.providerID, rawID: link.rawID), owner.uid != account.uid {
                throw AuthError(firebase: .duplicateRawId, message: "raw id exists in other account in database")
              }
            }
            if allowOverwrite { try store.deleteRefreshTokens(uid: account.uid) }
            try store.save(account)
          }
        } catch let error as AuthError where error.code != .storage {
          refusals.append((index, Self.refusal(error)))
        }
      }
    }
    return refusals.sorted { $0.index < $1.index }
  }

  /// The stored form of `imported`, checked.
  private func account(from imported: ImportedAccount) throws -> EmbeddedDatabase.Account {
    let uid = try AccountRules.validatedUID(imported.uid)
    let now = now()
    var account = EmbeddedDatabase.Account(
      uid: uid, createdAt: imported.createdAt ?? now, lastLoginAt: imported.lastLoginAt ?? now, validSince: now)
    if let email = imported.email {
      guard AccountRules.isEmail(email) else {
        throw AuthError(firebase: .invalidEmail, message: "email is invalid")
      }
      account.email = email.lowercased()
    }
    if let phone = imported.phoneNumber {
      guard (try? AccountRules.validatedPhoneNumber(phone)) != nil else {
        throw AuthError(firebase: .invalidPhoneNumber, message: "phone number format is invalid")
      }
      account.phoneNumber = phone
    }
    account.emailVerified = imported.emailVerified
    try FieldLimits.checkProfile(displayName: imported.displayName, photoURL: imported.photoURL)
    account.displayName = imported.displayName
    account.photoURL = imported.photoURL
    account.disabled = imported.disabled
    if let hash = imported.password {
      account.setPassword(hash, at: now)
    } else if let raw = imported.rawPassword {
      account.setPassword(
        try PasswordHash.make(try AccountRules.validated("valid@example.com", raw).1, parameters: configuration.scrypt),
        at: now)
    }
    if let attributes = imported.customAttributes {
      let claims = try AccountRules.customClaims(attributes)
      account.customClaims = claims.isEmpty ? nil : claims
    }
    if !imported.phoneSecondFactors.isEmpty {
      // As the emulator's import requires: a second factor goes with a verified email.
      guard account.email != nil, account.emailVerified else {
        throw AuthError(
          firebase: .invalidArgument, message: "a second factor account needs an email, and the email verified")
      }
      account.secondFactors = try imported.phoneSecondFactors.map { factor in
        guard let number = try? AccountRules.validatedPhoneNumber(factor.phoneNumber) else {
          throw AuthError(firebase: .invalidPhoneNumber, message: "a second factor's phone number format is invalid")
        }
        return EmbeddedDatabase.SecondFactor(
          enrollmentID: try factor.enrollmentID ?? Base64URL.encode(Crypto.randomBytes(12)),
          displayName: factor.displayName, secret: "", phoneNumber: number, enrolledAt: factor.enrolledAt ?? now)
      }
    }
    // The password and phone "providers" follow from the account itself.
    account.federated = imported.providers.filter { $0.providerID != .password && $0.providerID.rawValue != "phone" }
    return account
  }

  /// A refusal's message as Firebase's upload reply words it.
  private static func refusal(_ error: any Error) -> String {
    let error = AuthError.wrapping(error)
    switch error.firebaseFailure?.code {
    case .forbiddenClaim: return "Custom claims provided include a reserved claim."
    case .claimsTooLarge: return "Custom claims provided are too large."
    case .invalidClaims: return "Invalid custom claims provided."
    default: return error.message
    }
  }
}
