import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// How the backend's answers look on the wire: the shapes every handler's reply is made of.
enum ReplyShapes {
  static func signIn(_ response: SignInResponse, kind: String) -> SignInReply {
    var reply = tokens(response.tokens)
    reply.kind = kind
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

  /// The reply to a sign-in that waits for a second factor: a 200 with the pending credential and
  /// the factors, and no tokens.
  static func pendingSecondFactor(_ challenge: SecondFactorChallenge) -> SignInReply {
    var reply = SignInReply()
    reply.mfaPendingCredential = challenge.pendingCredential
    reply.mfaInfo = challenge.factors.map(secondFactor)
    return reply
  }

  /// Runs a sign-in; one that waits for a second factor answers ``pendingSecondFactor(_:)``.
  static func signingIn(_ operation: () async throws -> SignInReply) async throws -> SignInReply {
    do {
      return try await operation()
    } catch let error as AuthError where error.secondFactor != nil {
      return pendingSecondFactor(error.secondFactor!)
    }
  }

  /// What the IdP said of the user `credential` proves, as the emulator's `signInWithIdp`
  /// answers it: the federated id, the name, email and picture from the ID token's claims, and
  /// the claims themselves as `rawUserInfo` (Google's in its userinfo shape, with the granted
  /// scopes).
  static func describeIdentity(of credential: ProviderCredential, in reply: inout SignInReply) {
    guard let claims = credential.idToken.flatMap(Self.claims(ofIdToken:)), let subject = claims["sub"]?.string
    else { return }
    let email = claims["email"]?.string
    let name = claims["name"]?.string ?? credential.fullName
    let verified = claims["email_verified"].flatMap { $0.bool ?? ($0.string.map { $0 == "true" }) }
    reply.displayName = reply.displayName ?? name
    reply.fullName = name
    reply.email = reply.email ?? email
    reply.emailVerified = verified
    reply.photoUrl = claims["picture"]?.string
    reply.screenName = claims["screen_name"]?.string
    var raw = claims
    if credential.providerID == .google {
      reply.federatedId = "https://accounts.google.com/\(subject)"
      reply.firstName = claims["given_name"]?.string
      reply.lastName = claims["family_name"]?.string
      let scopes =
        ["openid", "https://www.googleapis.com/auth/userinfo.profile"]
        + (email == nil ? [] : ["https://www.googleapis.com/auth/userinfo.email"])
      raw = [
        "granted_scopes": .string(scopes.joined(separator: " ")), "id": .string(subject), "locale": .string("en"),
      ]
      raw["name"] = name.map(JSONValue.string)
      raw["given_name"] = claims["given_name"]
      raw["family_name"] = claims["family_name"]
      raw["verified_email"] = verified.map(JSONValue.bool)
      raw["email"] = email.map(JSONValue.string)
      raw["picture"] = claims["picture"]
    } else {
      reply.federatedId = subject
    }
    if let saml = credential.samlResponse.flatMap({ try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }) {
      // As the emulator reads a SAML response: the subject's nameId is a verified email, and
      // the raw user info is the assertion's attribute statements, when it has any.
      let assertion = saml.object?["assertion"]?.object
      if let nameID = assertion?["subject"]?.object?["nameId"]?.string, AccountRules.isEmail(nameID) {
        reply.email = nameID.lowercased()
      }
      reply.emailVerified = true
      reply.rawUserInfo = assertion?["attributeStatements"].flatMap { try? JSONEncoder().encode($0) }
        .map { String(decoding: $0, as: UTF8.self) }
      return
    }
    reply.rawUserInfo = (try? JSONEncoder().encode(JSONValue.object(raw))).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The claims of an IdP's ID token: a JWT's, or the emulator's bare JSON form's.
  private static func claims(ofIdToken token: String) -> [String: JSONValue]? {
    if token.hasPrefix("{") { return (try? JSONDecoder().decode(JSONValue.self, from: Data(token.utf8)))?.object }
    return (try? JSONWebToken(decoding: token))?.claims
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
      // An IdP's user id, as Firebase names it for a federated identity; the password
      // provider's is its email, as the emulator gives it.
      if provider.providerID == .phone {
        info.phoneNumber = provider.rawID
      } else {
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
    if !account.passkeys.isEmpty {
      record.passkeyInfo = account.passkeys.map {
        PasskeyInfoRecord(name: $0.name, credentialId: WireBytes.encode(Base64URL.decode($0.credentialID) ?? []))
      }
    }
    return record
  }

  /// The reply to `accounts:update`.
  static func update(_ account: AccountInfo, tokens: IssuedTokens?) -> UpdateAccountReply {
    let record = self.account(account)
    var reply = UpdateAccountReply()
    reply.kind = "identitytoolkit#SetAccountInfoResponse"
    reply.localId = record.localId
    reply.email = record.email
    reply.emailVerified = record.emailVerified
    reply.displayName = record.displayName
    reply.photoUrl = record.photoUrl
    reply.providerUserInfo = record.providerUserInfo
    if let tokens {
      reply.idToken = tokens.idToken
      reply.refreshToken = tokens.refreshToken
      reply.expiresIn = seconds(tokens.expiresIn)
    }
    return reply
  }

  /// A user record as the administrator's lookup and list calls return it: with the dates, the
  /// custom claims, and the password's hash and salt.
  /// An account as the administrator's calls list it; a tenant's names its tenant, as the
  /// emulator's do.
  static func adminAccount(_ account: EmbeddedDatabase.Account, of backend: EmbeddedBackend) -> AccountRecord {
    var record = self.account(account.info)
    record.tenantId = backend.configuration.tenantID
    record.validSince = String(RequestNumber.whole(account.validSince.timeIntervalSince1970))
    if let claims = account.customClaims, let text = try? JSONEncoder().encode(JSONValue.object(claims)) {
      record.customAttributes = String(decoding: text, as: UTF8.self)
    }
    if account.customAuth == true { record.customAuth = true }
    record.passwordUpdatedAt = account.passwordUpdatedAt.map { ($0.timeIntervalSince1970 * 1000).rounded() }
    record.lastRefreshAt = account.lastActiveAt.formatted(isoMilliseconds)
    record.passwordHash = account.password?.hash
    record.salt = account.password?.salt
    return record
  }

  static func secondFactor(_ factor: MultiFactorInfo) -> MFAEnrollment {
    var entry = MFAEnrollment()
    entry.mfaEnrollmentId = factor.enrollmentID
    entry.displayName = factor.displayName
    entry.enrolledAt = factor.enrolledAt?.formatted(.iso8601)
    // The backend hands the number out masked, as Firebase shows it to a pending sign-in.
    if factor.kind == .totp { entry.totpInfo = NoBody() } else { entry.phoneInfo = factor.phoneNumber ?? "+" }
    return entry
  }

  static func seconds(_ duration: Duration) -> String { String(RequestNumber.whole(duration.seconds.rounded())) }

  /// ISO 8601 with milliseconds, UTC (`lastRefreshAt`).
  static let isoMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  static func milliseconds(_ date: Date) -> String {
    String(RequestNumber.whole((date.timeIntervalSince1970 * 1000).rounded()))
  }
}
