import Foundation

/// The Firebase shapes: sign-in tokens and account descriptions.
extension JSONReply {
  /// The tokens of a sign-in reply (`idToken`, `refreshToken`, `expiresIn`).
  func tokens(in call: String) throws -> IssuedTokens {
    IssuedTokens(
      idToken: try required("idToken", in: call), refreshToken: try required("refreshToken", in: call),
      expiresIn: try duration("expiresIn", in: call, within: Self.tokenLifetimes) ?? .seconds(3600))
  }

  /// The account a `lookup` user or an `update` reply describes.
  func account(in call: String) throws -> AccountInfo {
    let providers = (fields["providerUserInfo"]?.array ?? []).compactMap { entry -> ProviderInfo? in
      guard let object = entry.object else { return nil }
      let info = JSONReply(object)
      guard let providerID = info.string("providerId") else { return nil }
      return ProviderInfo(
        providerID: ProviderID(rawValue: providerID),
        rawID: info.string("rawId") ?? info.string("federatedId") ?? "",
        email: info.string("email"), displayName: info.string("displayName"),
        photoURL: info.string("photoUrl").flatMap(URL.init(string:)))
    }
    return AccountInfo(
      localID: try required("localId", in: call), email: string("email"), emailVerified: bool("emailVerified"),
      displayName: string("displayName"), photoURL: string("photoUrl").flatMap(URL.init(string:)),
      disabled: bool("disabled"), providers: providers, createdAt: date(milliseconds: "createdAt"),
      lastLoginAt: date(milliseconds: "lastLoginAt"),
      secondFactors: (fields["mfaInfo"]?.array ?? []).compactMap { $0.object.flatMap { JSONReply($0).secondFactor } })
  }

  /// One `mfaInfo` entry: `totpInfo` or `phoneInfo` says the kind; `enrolledAt` is RFC 3339.
  var secondFactor: MultiFactorInfo? {
    guard let id = string("mfaEnrollmentId") else { return nil }
    let kind: MultiFactorInfo.Kind = fields["phoneInfo"] != nil ? .phone : .totp
    return MultiFactorInfo(
      enrollmentID: id, kind: kind, displayName: string("displayName"),
      enrolledAt: date(rfc3339: "enrolledAt"))
  }
}
