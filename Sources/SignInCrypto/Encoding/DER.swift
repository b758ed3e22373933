/// The few ASN.1 DER (X.690) shapes that RSA keys and a self-signed certificate need, written and
/// read as plain bytes: structure, not cryptography. Backends whose library speaks only PKCS#1
/// (Apple's Security) use it to reach the PKCS#8 and SubjectPublicKeyInfo forms SignInCrypto
/// keeps; the OpenSSL backend never needs it, and the tests hold both to the same bytes.
///
/// - Concurrency: stateless functions, any isolation.
enum DER {
  enum Tag: UInt8 {
    case integer = 0x02
    case bitString = 0x03
    case octetString = 0x04
    case null = 0x05
    case objectIdentifier = 0x06
    case utf8String = 0x0C
    case utcTime = 0x17
    case generalizedTime = 0x18
    case sequence = 0x30
    case set = 0x31
    /// `[0] EXPLICIT`, as in a certificate's version.
    case contextZero = 0xA0
  }

  /// `rsaEncryption` (1.2.840.113549.1.1.1).
  static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
  /// `sha256WithRSAEncryption` (1.2.840.113549.1.1.11).
  static let sha256WithRSAEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B]
  /// `commonName` (2.5.4.3).
  static let commonName: [UInt8] = [0x55, 0x04, 0x03]

  // MARK: - Writing

  static func element(_ tag: Tag, _ content: [UInt8]) -> [UInt8] {
    [tag.rawValue] + length(content.count) + content
  }

  static func sequence(_ elements: [[UInt8]]) -> [UInt8] { element(.sequence, elements.flatMap { $0 }) }

  /// A non-negative INTEGER from big-endian magnitude bytes.
  static func integer(_ magnitude: [UInt8]) -> [UInt8] {
    var bytes = Array(magnitude.drop { $0 == 0 })
    if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
    return element(.integer, bytes)
  }

  static func integer(_ value: UInt64) -> [UInt8] {
    integer((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
  }

  static let null: [UInt8] = [Tag.null.rawValue, 0]

  /// `AlgorithmIdentifier { algorithm, NULL }`.
  static func algorithm(_ identifier: [UInt8]) -> [UInt8] {
    sequence([element(.objectIdentifier, identifier), null])
  }

  /// A BIT STRING with no unused bits.
  static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(.bitString, [0] + bytes) }

  private static func length(_ count: Int) -> [UInt8] {
    guard count >= 0x80 else { return [UInt8(count)] }
    let bytes = (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> (8 * $0)) }.drop { $0 == 0 }
    return [0x80 | UInt8(bytes.count)] + bytes
  }

  // MARK: - Reading

  /// Reads DER elements one after another, checking every length against what is left.
  struct Reader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: some Collection<UInt8>) { self.bytes = ArraySlice(bytes) }

    var isAtEnd: Bool { bytes.isEmpty }

    /// The tag of the next element, if any.
    var nextTag: UInt8? { bytes.first }

    /// The content of the next element, which must have `tag`.
    mutating func read(_ tag: Tag) throws -> [UInt8] {
      guard let first = bytes.first else { throw malformed("ends early") }
      guard first == tag.rawValue else { throw malformed("has an unexpected element") }
      bytes = bytes.dropFirst()
      let count = try readLength()
      guard count <= bytes.count else { throw malformed("is shorter than its lengths say") }
      let content = Array(bytes.prefix(count))
      bytes = bytes.dropFirst(count)
      return content
    }

    /// The next element whole (tag, length and content), whatever its tag.
    mutating func readElement() throws -> [UInt8] {
      let start = bytes
      guard bytes.first != nil else { throw malformed("ends early") }
      bytes = bytes.dropFirst()
      let count = try readLength()
      guard count <= bytes.count else { throw malformed("is shorter than its lengths say") }
      bytes = bytes.dropFirst(count)
      return Array(start.prefix(start.count - bytes.count))
    }

    /// The magnitude of the next INTEGER, without its sign byte; negative numbers are refused.
    mutating func readUnsignedInteger() throws -> [UInt8] {
      let content = try read(.integer)
      guard let first = content.first, first & 0x80 == 0 else {
        throw malformed("has an empty or negative integer")
      }
      let magnitude = Array(content.drop { $0 == 0 })
      return magnitude.isEmpty ? [0] : magnitude
    }

    private mutating func readLength() throws -> Int {
      guard let first = bytes.first else { throw malformed("ends early") }
      bytes = bytes.dropFirst()
      guard first & 0x80 != 0 else { return Int(first) }
      let count = Int(first & 0x7F)
      guard (1...4).contains(count), count <= bytes.count else {
        throw malformed("has a length it cannot hold")
      }
      let length = bytes.prefix(count).reduce(0) { $0 << 8 | Int($1) }
      bytes = bytes.dropFirst(count)
      guard length >= 0x80 else { throw malformed("has a length in a longer form than DER allows") }
      return length
    }

    private func malformed(_ what: String) -> CryptoError {
      CryptoError("the key or certificate bytes are not valid DER: the encoding \(what)")
    }
  }
}
