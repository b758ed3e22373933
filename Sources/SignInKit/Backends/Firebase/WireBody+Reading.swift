import Foundation
import SignInCrypto
import SignInWire

/// How ``FirebaseBackend`` reads a reply's fields: the ones a call cannot do without, and numbers
/// checked before they become durations or counts. Errors name the field as the wire does.
extension WireBody {
  /// A field the call cannot do without.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` naming the field when it is absent or empty.
  func required(_ value: String?, _ field: CodingKeys, in call: String) throws -> String {
    guard let value, !value.isEmpty else {
      throw AuthError(
        .invalidResponse,
        "The server's reply to \(call) has no \(field.stringValue). Try again; if it persists, check the backend.")
    }
    return value
  }

  /// A token lifetime in seconds (`expiresIn`), `nil` when absent.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` when it is present but not a number within
  ///   ``JSONReply/tokenLifetimes`` (`"nan"`, `"1e300"`, `-1`), which would trap in the
  ///   conversion or schedule nonsense.
  func duration(_ value: String?, _ field: CodingKeys, in call: String) throws -> Duration? {
    guard let value else { return nil }
    return try JSONReply.duration(
      seconds: Double(value), named: field.stringValue, in: call, within: JSONReply.tokenLifetimes)
  }

  /// A whole number within `range`, `nil` when absent.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` when it is present but not a whole number in
  ///   `range`.
  func whole(_ value: Double?, _ field: CodingKeys, in call: String, within range: ClosedRange<Int>) throws -> Int? {
    guard let value else { return nil }
    guard let whole = Int(exactly: value.rounded(.towardZero)), value == value.rounded(.towardZero),
      range.contains(whole)
    else {
      throw AuthError(
        .invalidResponse,
        "The server's reply to \(call) has an unusable \(field.stringValue) (expected \(range.lowerBound)–"
          + "\(range.upperBound)). Try again; if it persists, check the backend.")
    }
    return whole
  }
}

extension SignInReply {
  /// The tokens a sign-in issued.
  func tokens(in call: String) throws -> IssuedTokens {
    IssuedTokens(
      idToken: try required(idToken, .idToken, in: call),
      refreshToken: try required(refreshToken, .refreshToken, in: call),
      expiresIn: try duration(expiresIn, .expiresIn, in: call) ?? .seconds(3600))
  }

  /// A reply with `mfaPendingCredential` and no tokens waits for a second factor: it becomes
  /// ``AuthError/Code/secondFactorRequired`` carrying the factors (`mfaInfo`).
  func rejectSecondFactor(firstFactor: ProviderID) throws {
    guard let pending = mfaPendingCredential, idToken == nil else { return }
    throw AuthError.secondFactorRequired(
      SecondFactorChallenge(
        factors: (mfaInfo ?? []).compactMap(\.factor), firstFactor: firstFactor, pendingCredential: pending))
  }
}

extension AccountRecord {
  /// The account this record describes.
  func account(in call: String) throws -> AccountInfo {
    let providers = (providerUserInfo ?? []).compactMap { info -> ProviderInfo? in
      guard let providerID = info.providerId else { return nil }
      return ProviderInfo(
        providerID: ProviderID(rawValue: providerID), rawID: info.rawId ?? info.federatedId ?? info.phoneNumber ?? "",
        email: info.email, displayName: info.displayName, photoURL: info.photoUrl.flatMap(URL.init(string:)))
    }
    return AccountInfo(
      localID: try required(localId, .localId, in: call), email: email, emailVerified: emailVerified ?? false,
      displayName: displayName, photoURL: photoUrl.flatMap(URL.init(string:)), disabled: disabled ?? false,
      providers: providers, createdAt: Self.date(milliseconds: createdAt),
      lastLoginAt: Self.date(milliseconds: lastLoginAt), secondFactors: (mfaInfo ?? []).compactMap(\.factor),
      phoneNumber: phoneNumber,
      passkeys: (passkeyInfo ?? []).compactMap { info in
        // Kept base64url, whichever alphabet came: the id is the one Auth sends back to remove it.
        guard let id = info.credentialId, let bytes = WireBytes.decode(id) else { return nil }
        return PasskeyInfo(name: info.name ?? "Passkey", credentialID: Base64URL.encode(bytes))
      })
  }

  /// A time in milliseconds since 1970.
  static func date(milliseconds text: String?) -> Date? {
    text.flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
  }
}

extension UpdateAccountReply {
  /// The account as the update left it.
  func account(in call: String) throws -> AccountInfo {
    let record = AccountRecord(
      localId: localId, email: email, emailVerified: emailVerified, displayName: displayName,
      photoUrl: photoUrl, providerUserInfo: providerUserInfo)
    return try record.account(in: call)
  }

  /// The tokens an update issued, when it replaced them (a new email or password).
  func tokens(in call: String) throws -> IssuedTokens? {
    guard let idToken, let refreshToken else { return nil }
    return IssuedTokens(
      idToken: idToken, refreshToken: refreshToken,
      expiresIn: try duration(expiresIn, .expiresIn, in: call) ?? .seconds(3600))
  }
}

extension MFAEnrollment {
  /// The second factor: `phoneInfo` makes it a phone (its number masked, as a lookup shows it
  /// whole), else a TOTP factor.
  var factor: MultiFactorInfo? {
    guard let mfaEnrollmentId else { return nil }
    return MultiFactorInfo(
      enrollmentID: mfaEnrollmentId, kind: phoneInfo != nil ? .phone : .totp, displayName: displayName,
      enrolledAt: JSONReply.date(rfc3339: enrolledAt), phoneNumber: phoneInfo.map(MultiFactorInfo.masked))
  }
}
