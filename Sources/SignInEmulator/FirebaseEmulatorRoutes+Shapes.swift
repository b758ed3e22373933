import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The shapes of the emulator's replies and the helpers every route uses.
extension FirebaseEmulatorRoutes {
  // MARK: - Shapes

  static func signIn(_ response: SignInResponse) -> SignInReply {
    var reply = tokens(response.tokens)
    reply.localId = response.localID
    reply.email = response.email ?? ""
    return reply
  }

  static func tokens(_ tokens: IssuedTokens) -> SignInReply {
    var reply = SignInReply()
    reply.idToken = tokens.idToken
    reply.refreshToken = tokens.refreshToken
    reply.expiresIn = seconds(tokens.expiresIn)
    return reply
  }

  static func account(_ account: AccountInfo) -> AccountRecord {
    var record = AccountRecord()
    record.localId = account.localID
    record.emailVerified = account.emailVerified
    record.disabled = account.disabled
    record.providerUserInfo = account.providers.map { provider in
      var info = ProviderUserInfo()
      info.providerId = provider.providerID.rawValue
      info.rawId = provider.rawID
      // An IdP's user id, as Firebase names it for a federated identity.
      if provider.providerID == .phone {
        info.phoneNumber = provider.rawID
      } else if provider.providerID != .password {
        info.federatedId = provider.rawID
      }
      info.email = provider.email
      info.displayName = provider.displayName
      info.photoUrl = provider.photoURL?.absoluteString
      return info
    }
    record.email = account.email
    record.phoneNumber = account.phoneNumber
    record.displayName = account.displayName
    record.photoUrl = account.photoURL?.absoluteString
    record.createdAt = account.createdAt.map(milliseconds)
    record.lastLoginAt = account.lastLoginAt.map(milliseconds)
    if !account.secondFactors.isEmpty { record.mfaInfo = account.secondFactors.map(secondFactor) }
    return record
  }

  /// The credential a `signInWithIdp` `postBody` carries (`id_token`, `access_token`,
  /// `providerId`, `nonce`, and Apple's `user` JSON with the name).
  static func credential(postBody: String) throws -> ProviderCredential {
    let fields = form(postBody)
    guard let provider = fields["providerId"], !provider.isEmpty else {
      throw AuthError(.invalidCredential, "postBody", serverMessage: "INVALID_IDP_RESPONSE : providerId is missing")
    }
    var credential = ProviderCredential(
      providerID: ProviderID(rawValue: provider), idToken: fields["id_token"], accessToken: fields["access_token"],
      rawNonce: fields["nonce"])
    if let user = fields["user"].flatMap({ object(Data($0.utf8)) }), let name = user["name"]?.object {
      credential.givenName = name["firstName"]?.string
      credential.familyName = name["lastName"]?.string
    }
    return credential
  }

  // MARK: - Helpers

  static func json(_ object: [String: JSONValue], status: Int = 200) -> Reply {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return Reply(status: status, body: (try? encoder.encode(JSONValue.object(object))) ?? Data("{}".utf8))
  }

  /// A wire body as the reply.
  static func reply(_ body: some WireBody, status: Int = 200) -> Reply {
    Reply(status: status, body: (try? body.encoded()) ?? Data("{}".utf8))
  }

  /// Firebase's error envelope.
  static func failure(_ status: Int, _ message: String) -> Reply {
    reply(ErrorEnvelope(status: status, message: message), status: status)
  }

  static func failure(_ error: AuthError) -> Reply {
    guard let message = error.serverMessage else {
      return failure(error.code == .storage ? 503 : 500, "INTERNAL_ERROR : \(error.message)")
    }
    return failure(400, message)
  }

  static func object(_ data: Data) -> [String: JSONValue]? {
    (try? JSONDecoder().decode(JSONValue.self, from: data))?.object
  }

  static func string(_ name: String, in fields: [String: JSONValue]) throws -> String {
    guard let value = fields[name]?.string, !value.isEmpty else {
      throw AuthError(.invalidResponse, name, serverMessage: "MISSING_\(snake(name).uppercased())")
    }
    return value
  }

  /// `application/x-www-form-urlencoded` fields, percent-decoded (`+` is a space).
  static func form(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map {
        $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
      }
      guard let name = parts.first, fields[name] == nil else { continue }
      fields[name] = parts.count > 1 ? parts[1] : ""
    }
    return fields
  }

  static func seconds(_ duration: Duration) -> String { String(RequestNumber.whole(duration.seconds.rounded())) }

  /// ISO 8601 with milliseconds, UTC (`lastRefreshAt`).
  static let isoMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  static func milliseconds(_ date: Date) -> String {
    String(RequestNumber.whole((date.timeIntervalSince1970 * 1000).rounded()))
  }

  /// The v1 name of a legacy v3 relying-party call.
  static func v1Name(_ v3: String) -> String {
    [
      "signupNewUser": "signUp", "verifyPassword": "signInWithPassword", "verifyAssertion": "signInWithIdp",
      "getOobConfirmationCode": "sendOobCode", "setAccountInfo": "update", "getAccountInfo": "lookup",
      "deleteAccount": "delete", "resetPassword": "resetPassword", "verifyCustomToken": "signInWithCustomToken",
      "verifyPhoneNumber": "signInWithPhoneNumber",
    ][v3] ?? v3
  }

  /// Whether the headers carry the emulator's owner credential.
  static func isAdmin(_ headers: [String: String]) -> Bool {
    guard let authorization = headers["authorization"], authorization.lowercased().hasPrefix("bearer ") else {
      return false
    }
    let token = authorization.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
    return token.lowercased() == "owner" || token.hasPrefix("ya29.")
  }

  static func query(of target: String) -> String {
    guard let mark = target.firstIndex(of: "?") else { return "" }
    return String(target[target.index(after: mark)...])
  }

  private static func snake(_ name: String) -> String {
    name.reduce(into: "") { result, character in
      if character.isUppercase { result += "_" }
      result.append(character)
    }
  }
}

extension String {
  func dropPrefix(_ prefix: String) -> String? {
    hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
  }

  func dropSuffix(_ suffix: String) -> String? {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : nil
  }
}
