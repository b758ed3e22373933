/// A WebAuthn relying party's checks (WebAuthn Level 3 §7.1 and §7.2), for registrations and
/// assertions: the client data's type, challenge and origin, the authenticator data's relying
/// party id hash and flags, the attestation (`none`, or `packed` self-attestation), the
/// signature (by the crypto library) and the signature counter.
///
/// Challenges are the caller's: it makes them, keeps them for one use, and passes the one it
/// issued.
///
/// - Concurrency: `Sendable` value.
package struct WebAuthnRelyingParty: Sendable, Equatable {
  /// The relying party id: a registrable domain (`example.com`), or `localhost`.
  package var id: String
  /// The origins served, exactly (`https://example.com`, `android:apk-key-hash:…`). With `id`
  /// `localhost`, every `http(s)://localhost[:port]` origin is served too.
  package var origins: Set<String>
  /// Whether a response must report user verification (biometrics, PIN), not only presence.
  package var requiresUserVerification: Bool

  package init(id: String, origins: Set<String> = [], requiresUserVerification: Bool = false) {
    self.id = id
    self.origins = origins.isEmpty ? ["https://\(id)"] : origins
    self.requiresUserVerification = requiresUserVerification
  }

  /// A new credential, checked.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Registration: Sendable, Equatable {
    package var credentialID: [UInt8]
    /// The COSE_Key as the authenticator encoded it: what to keep.
    package var publicKey: [UInt8]
    package var signCount: UInt32
    package var aaguid: [UInt8]
    package var userVerified: Bool
    package var backupEligible: Bool
    /// `none` or `packed`.
    package var attestationFormat: String
  }

  /// Checks a registration (`navigator.credentials.create`'s response) made for `challenge`.
  ///
  /// - Throws: ``WebAuthnRefusal`` saying what is wrong.
  package func verifyRegistration(
    clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8]
  ) throws(WebAuthnRefusal) -> Registration {
    try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge)
    let object: CBOR
    do {
      object = try CBOR.decode(attestationObject)
    } catch {
      throw WebAuthnRefusal(.malformed, "the attestation object: \(error)")
    }
    guard let format = object["fmt"]?.text, let statement = object["attStmt"], statement.pairs != nil,
      let authDataBytes = object["authData"]?.bytes
    else { throw WebAuthnRefusal(.malformed, "the attestation object lacks fmt, attStmt or authData") }
    let data = try authenticatorData(authDataBytes)
    guard let credential = data.attestedCredential else {
      throw WebAuthnRefusal(.malformed, "the registration's authenticator data carries no credential")
    }
    try checkFlags(data)
    let clientDataHash = Crypto.sha256(clientDataJSON)
    switch format {
    case "none":
      guard statement.pairs?.isEmpty == true else {
        throw WebAuthnRefusal(.malformed, "a \"none\" attestation has an empty statement")
      }
    case "packed":
      guard statement["x5c"] == nil else {
        throw WebAuthnRefusal(
          .unsupported, "packed attestation with a certificate chain is not taken; ask for attestation \"none\"")
      }
      guard let alg = statement["alg"]?.int, alg == credential.publicKey.algorithm,
        let signature = statement["sig"]?.bytes
      else {
        throw WebAuthnRefusal(.malformed, "a packed self-attestation needs alg (the credential's) and sig")
      }
      guard credential.publicKey.verify(signature: signature, message: authDataBytes + clientDataHash) else {
        throw WebAuthnRefusal(.signature, "the packed self-attestation's signature does not verify")
      }
    default:
      throw WebAuthnRefusal(
        .unsupported, "attestation format \"\(format)\" is not taken; ask for attestation \"none\"")
    }
    return Registration(
      credentialID: credential.credentialID, publicKey: credential.publicKeyBytes, signCount: data.signCount,
      aaguid: credential.aaguid, userVerified: data.flags.contains(.userVerified),
      backupEligible: data.flags.contains(.backupEligible), attestationFormat: format)
  }

  /// A checked assertion: what the relying party keeps, and what the authenticator proved.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Assertion: Sendable, Equatable {
    /// The counter to keep.
    package var signCount: UInt32
    /// Whether the authenticator verified the person (biometrics, PIN), not only their presence.
    package var userVerified: Bool
  }

  /// Checks an assertion (`navigator.credentials.get`'s response) made for `challenge` with the
  /// credential whose COSE key is `publicKey` and whose counter stood at `signCount`.
  ///
  /// - Returns: the new counter to keep, and whether the person was verified.
  /// - Throws: ``WebAuthnRefusal`` saying what is wrong; a counter that does not go forward
  ///   (when either is non-zero) is refused as a cloned authenticator.
  package func verifyAssertion(
    clientDataJSON: [UInt8], authenticatorData bytes: [UInt8], signature: [UInt8], challenge: [UInt8],
    publicKey: [UInt8], signCount: UInt32
  ) throws(WebAuthnRefusal) -> Assertion {
    try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge)
    let data = try authenticatorData(bytes)
    guard data.attestedCredential == nil else {
      throw WebAuthnRefusal(.malformed, "an assertion's authenticator data carries a new credential")
    }
    try checkFlags(data)
    let key: COSEKey
    do {
      key = try COSEKey(bytes: publicKey)
    } catch {
      throw WebAuthnRefusal(.malformed, "the stored credential key: \(error)")
    }
    guard key.verify(signature: signature, message: bytes + Crypto.sha256(clientDataJSON)) else {
      throw WebAuthnRefusal(.signature, "the assertion's signature does not verify with the credential's key")
    }
    if data.signCount != 0 || signCount != 0 {
      guard data.signCount > signCount else {
        throw WebAuthnRefusal(
          .signature,
          "the signature counter went from \(signCount) to \(data.signCount): the authenticator may be cloned")
      }
    }
    return Assertion(signCount: data.signCount, userVerified: data.flags.contains(.userVerified))
  }

  // MARK: - Steps

  private func checkClientData(_ json: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnRefusal) {
    let client = try CollectedClientData(json: json)
    guard client.type == type else {
      throw WebAuthnRefusal(.malformed, "clientDataJSON's type is \(client.type), not \(type)")
    }
    guard Crypto.constantTimeEqual(client.challenge, challenge) else {
      throw WebAuthnRefusal(.challenge, "the response answers another challenge")
    }
    guard serves(origin: client.origin) else {
      throw WebAuthnRefusal(.relyingPartyMismatch, "the origin \(client.origin.prefix(100)) is not one \(id) serves")
    }
    guard !client.crossOrigin else {
      throw WebAuthnRefusal(.relyingPartyMismatch, "the ceremony ran in a cross-origin frame")
    }
  }

  private func authenticatorData(_ bytes: [UInt8]) throws(WebAuthnRefusal) -> AuthenticatorData {
    let data: AuthenticatorData
    do {
      data = try AuthenticatorData(bytes)
    } catch {
      throw WebAuthnRefusal(.malformed, "\(error)")
    }
    guard Crypto.constantTimeEqual(data.rpIDHash, Crypto.sha256(Array(id.utf8))) else {
      throw WebAuthnRefusal(.relyingPartyMismatch, "the authenticator signed for another relying party id than \(id)")
    }
    return data
  }

  private func checkFlags(_ data: AuthenticatorData) throws(WebAuthnRefusal) {
    guard data.flags.contains(.userPresent) else {
      throw WebAuthnRefusal(.userPresence, "the authenticator did not report a person present")
    }
    guard !requiresUserVerification || data.flags.contains(.userVerified) else {
      throw WebAuthnRefusal(.userPresence, "the authenticator did not verify the person, and \(id) requires it")
    }
    guard data.flags.contains(.backupEligible) || !data.flags.contains(.backedUp) else {
      throw WebAuthnRefusal(.malformed, "the flags say backed up but not backup eligible")
    }
  }

  /// Whether `origin` is one this relying party serves.
  package func serves(origin: String) -> Bool {
    if origins.contains(origin) { return true }
    guard id == "localhost" else { return false }
    for scheme in ["http://localhost", "https://localhost"] where origin.hasPrefix(scheme) {
      let rest = origin.dropFirst(scheme.count)
      if rest.isEmpty { return true }
      if rest.first == ":", rest.count <= 6, rest.dropFirst().allSatisfy(\.isASCIIDigit), rest.count > 1 { return true }
    }
    return false
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
