/// The authenticator data of a WebAuthn registration or assertion (WebAuthn Level 3 §6.1): the
/// hash of the relying party id, the flags, the signature counter, and on registration the new
/// credential (its id and COSE public key).
///
/// - Concurrency: `Sendable` value.
package struct AuthenticatorData: Sendable, Equatable {
  /// The flags byte, by name.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Flags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// UP: a person was present (touched, clicked, looked).
    package static let userPresent = Flags(rawValue: 0x01)
    /// UV: the authenticator verified who the person is (biometrics, PIN).
    package static let userVerified = Flags(rawValue: 0x04)
    /// BE: the credential may be backed up (synced passkeys).
    package static let backupEligible = Flags(rawValue: 0x08)
    /// BS: the credential is backed up now.
    package static let backedUp = Flags(rawValue: 0x10)
    /// AT: attested credential data follows.
    package static let attestedCredential = Flags(rawValue: 0x40)
    /// ED: extensions follow.
    package static let extensions = Flags(rawValue: 0x80)
  }

  /// A new credential, as a registration reports it.
  ///
  /// - Concurrency: `Sendable` value.
  package struct AttestedCredential: Sendable, Equatable {
    /// The authenticator model (16 bytes; zero for many platform authenticators).
    package var aaguid: [UInt8]
    package var credentialID: [UInt8]
    /// The COSE_Key as it was encoded: what a relying party keeps.
    package var publicKeyBytes: [UInt8]
    package var publicKey: COSEKey
  }

  /// The longest credential id WebAuthn allows.
  package static let maximumCredentialIDLength = 1023

  /// What is wrong with authenticator data.
  ///
  /// - Concurrency: `Sendable` value.
  package struct FormatError: Error, Equatable, CustomStringConvertible {
    package let reason: String
    package var description: String { "authenticator data: \(reason)" }
  }

  /// SHA-256 of the relying party id.
  package var rpIDHash: [UInt8]
  package var flags: Flags
  package var signCount: UInt32
  package var attestedCredential: AttestedCredential?
  /// The extension outputs, when the ED flag is set.
  package var extensions: CBOR?
  /// The bytes read, exactly: signatures cover them.
  package var bytes: [UInt8]

  /// Reads `bytes`.
  ///
  /// - Throws: ``FormatError`` for data shorter than its parts, flags that promise what is not
  ///   there (or data no flag announces), a credential id over 1023 bytes, or a bad COSE key.
  package init(_ bytes: [UInt8]) throws(FormatError) {
    guard bytes.count >= 37 else { throw FormatError(reason: "\(bytes.count) bytes, fewer than the 37 required") }
    self.bytes = bytes
    rpIDHash = Array(bytes[0..<32])
    flags = Flags(rawValue: bytes[32])
    signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    var offset = 37
    if flags.contains(.attestedCredential) {
      guard bytes.count >= offset + 18 else { throw FormatError(reason: "the attested credential is cut short") }
      let aaguid = Array(bytes[offset..<offset + 16])
      let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
      offset += 18
      guard length > 0, length <= Self.maximumCredentialIDLength else {
        throw FormatError(reason: "a credential id of \(length) bytes (1 to 1023)")
      }
      guard bytes.count >= offset + length else { throw FormatError(reason: "the credential id is cut short") }
      let credentialID = Array(bytes[offset..<offset + length])
      offset += length
      let key: CBOR
      let end: Int
      do {
        (key, end) = try CBOR.decodePrefix(bytes, from: offset)
      } catch {
        throw FormatError(reason: "the credential public key: \(error)")
      }
      let publicKey: COSEKey
      do {
        publicKey = try COSEKey(key)
      } catch {
        throw FormatError(reason: "\(error)")
      }
      attestedCredential = AttestedCredential(
        aaguid: aaguid, credentialID: credentialID, publicKeyBytes: Array(bytes[offset..<end]), publicKey: publicKey)
      offset = end
    }
    if flags.contains(.extensions) {
      let parsed: (value: CBOR, end: Int)
      do {
        parsed = try CBOR.decodePrefix(bytes, from: offset)
      } catch {
        throw FormatError(reason: "the extensions: \(error)")
      }
      guard parsed.value.pairs != nil else { throw FormatError(reason: "the extensions are not a map") }
      extensions = parsed.value
      offset = parsed.end
    }
    guard offset == bytes.count else {
      throw FormatError(reason: "\(bytes.count - offset) bytes that no flag announces")
    }
  }

  /// Authenticator data with these parts, encoded: what an authenticator makes.
  package init(
    rpIDHash: [UInt8], flags: Flags, signCount: UInt32, credential: (aaguid: [UInt8], id: [UInt8], key: COSEKey)?
  ) throws {
    var flags = flags
    var bytes = rpIDHash + [0] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> (8 * $0)) }
    var attested: AttestedCredential?
    if let credential {
      flags.insert(.attestedCredential)
      let keyBytes = try credential.key.cbor.encoded
      bytes += credential.aaguid + [UInt8(credential.id.count >> 8), UInt8(credential.id.count & 0xff)]
      bytes += credential.id + keyBytes
      attested = AttestedCredential(
        aaguid: credential.aaguid, credentialID: credential.id, publicKeyBytes: keyBytes, publicKey: credential.key)
    }
    bytes[32] = flags.rawValue
    self.rpIDHash = rpIDHash
    self.flags = flags
    self.signCount = signCount
    self.attestedCredential = attested
    self.extensions = nil
    self.bytes = bytes
  }
}
