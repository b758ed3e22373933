import Foundation

/// A Firebase JSON reply, read the tolerant way the wire reference asks for: every field may be
/// missing, a missing boolean is false, an empty string is no value, and numbers may come as
/// strings (`expiresIn: "3600"`, `createdAt: "1700000000000"`) or as numbers.
///
/// - Concurrency: `Sendable` value.
struct FirebaseReply: Sendable {
  let fields: [String: JSONValue]

  init(_ fields: [String: JSONValue]) { self.fields = fields }

  func string(_ key: String) -> String? {
    guard let value = fields[key]?.string, !value.isEmpty else { return nil }
    return value
  }

  func bool(_ key: String) -> Bool {
    switch fields[key] {
    case .bool(let value)?: value
    case .string(let value)?: value == "true"
    default: false
    }
  }

  func number(_ key: String) -> Double? {
    switch fields[key] {
    case .number(let value)?: value
    case .string(let value)?: Double(value)
    default: nil
    }
  }

  /// A field that must be there.
  func required(_ key: String, in call: String) throws -> String {
    guard let value = string(key) else {
      throw AuthError(
        .invalidResponse, "The server's reply to \(call) has no \(key). Try again; if it persists, check the backend.")
    }
    return value
  }

  /// A timestamp in milliseconds since 1970.
  func date(milliseconds key: String) -> Date? {
    number(key).map { Date(timeIntervalSince1970: $0 / 1000) }
  }

  /// The tokens of a sign-in reply (`idToken`, `refreshToken`, `expiresIn`).
  func tokens(in call: String) throws -> IssuedTokens {
    IssuedTokens(
      idToken: try required("idToken", in: call), refreshToken: try required("refreshToken", in: call),
      expiresIn: .seconds(number("expiresIn") ?? 3600))
  }

  /// The account a `lookup` user or an `update` reply describes.
  func account(in call: String) throws -> AccountInfo {
    let providers = (fields["providerUserInfo"]?.array ?? []).compactMap { entry -> ProviderInfo? in
      guard let object = entry.object else { return nil }
      let info = FirebaseReply(object)
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
      lastLoginAt: date(milliseconds: "lastLoginAt"))
  }
}
