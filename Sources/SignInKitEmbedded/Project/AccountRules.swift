import Foundation
import SignInFoundation
import SignInKit
import SignInWire

/// What an account's fields must be, as Firebase checks them: an email's shape, a password's
/// length, an E.164 phone number, a uid, custom claims; and the refusals for a taken email or
/// number.
///
/// - Concurrency: stateless.
package enum AccountRules {
  static let emailExists = AuthError(firebase: .emailExists)

  static func validated(_ email: String?, _ password: String?) throws -> (String, String) {
    guard let email, !email.isEmpty else {
      throw AuthError(firebase: .missingEmail)
    }
    guard Self.isEmail(email) else {
      throw AuthError(firebase: .invalidEmail)
    }
    guard let password, !password.isEmpty else {
      throw AuthError(firebase: .missingPassword)
    }
    guard password.count >= 6 else {
      throw AuthError(firebase: .weakPassword, message: "The password must be at least 6 characters.")
    }
    guard password.count <= FieldLimits.password else {
      throw AuthError(
        firebase: .passwordDoesNotMeetRequirements,
        message: "Missing password requirements: [Password may contain at most \(FieldLimits.password) characters]")
    }
    return (email.lowercased(), password)
  }

  package static func isEmail(_ text: String) -> Bool {
    guard text.utf8.count <= FieldLimits.email, !FieldLimits.hasControlCharacters(text) else { return false }
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
      && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".") && !text.contains(" ")
  }

  /// `PHONE_NUMBER_EXISTS`, as Firebase answers a number another account has.
  static func phoneExists(_ phone: String) -> AuthError {
    AuthError(firebase: .phoneNumberExists, message: "Another account already has the phone number \(phone).")
  }

  /// `phone` when it is an E.164 number: `+`, then 1 to 15 digits, the first not 0.
  ///
  /// - Throws: `INVALID_PHONE_NUMBER`, saying the form to use.
  static func validatedPhoneNumber(_ phone: String) throws -> String {
    let digits = phone.utf8.dropFirst()
    guard phone.utf8.first == UInt8(ascii: "+"), (1...15).contains(digits.count),
      digits.first != UInt8(ascii: "0"), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else {
      throw AuthError(
        firebase: .invalidPhoneNumber,
        message: "\(phone) is not a phone number in E.164 form: write + and the country code, then the number, "
          + "digits only (+15551234567).")
    }
    return phone
  }

  /// Claims custom claims may not use: Firebase's reserved names, and every claim this server
  /// puts in an ID token itself (`user_id`, `email`, `email_verified`, `name`, `picture`,
  /// `provider_id`, `phone_number`), so a token's `user_id` can never differ from its `sub`.
  static let reservedClaims: Set<String> = [
    "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat",
    "iss", "jti", "nbf", "nonce", "sub", "user_id", "email", "email_verified", "name", "picture",
    "provider_id", "phone_number",
  ]

  /// The claims of a `customAttributes` string: a JSON object of at most 1,000 bytes that uses
  /// no reserved name.
  static func customClaims(_ text: String) throws -> [String: JSONValue] {
    try FieldLimits.checked(text, .claims, named: "customAttributes")
    guard let claims = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.object else {
      throw AuthError(
        firebase: .invalidClaims, message: "Custom claims must be a JSON object, such as {\"admin\":true}.")
    }
    try checkReserved(claims)
    return claims
  }

  /// Refuses a reserved claim name with `FORBIDDEN_CLAIM`.
  static func checkReserved(_ claims: [String: JSONValue]) throws {
    if let name = claims.keys.sorted().first(where: reservedClaims.contains) {
      throw AuthError(
        firebase: .forbiddenClaim, name, message: "The claim \(name) is reserved; choose another name.")
    }
  }

  static func validatedUID(_ uid: String) throws -> String {
    guard (1...128).contains(uid.count) else {
      throw AuthError(firebase: .invalidLocalId, message: "A uid has 1 to 128 characters.")
    }
    return uid
  }
}
