/// A CBOR data item (RFC 8949) as WebAuthn uses them: attestation objects, COSE keys and
/// authenticator extensions. Integers, byte and text strings, arrays, maps, tags, booleans and
/// null; floating-point numbers and indefinite lengths, which CTAP2's canonical form does not
/// use, are refused by ``decode(_:)``.
///
/// Decoding is bounded: at most ``maximumDepth`` levels and ``maximumItems`` items, and no
/// length is believed before the bytes for it are there, so a hostile input costs no more than
/// its own size.
///
/// - Concurrency: `Sendable` value.
package indirect enum CBOR: Sendable, Hashable {
  case unsigned(UInt64)
  /// The integer `-1 - n`.
  case negative(UInt64)
  case bytes([UInt8])
  case text(String)
  case array([CBOR])
  /// Key-value pairs in their encoded order.
  case map([Pair])
  case tagged(UInt64, CBOR)
  case bool(Bool)
  case null

  /// One entry of a map.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Pair: Sendable, Hashable {
    package var key: CBOR
    package var value: CBOR
    package init(_ key: CBOR, _ value: CBOR) {
      self.key = key
      self.value = value
    }
  }

  /// The deepest nesting read.
  package static let maximumDepth = 16
  /// The most data items read from one input.
  package static let maximumItems = 4096

  /// What is wrong with an input, at which byte.
  ///
  /// - Concurrency: `Sendable` value.
  package struct DecodingError: Error, Equatable, CustomStringConvertible {
    package let offset: Int
    package let reason: String
    package var description: String { "CBOR at byte \(offset): \(reason)" }
  }

  /// An integer from `value`.
  package static func int(_ value: Int64) -> CBOR {
    value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
  }

  // MARK: - Reading values

  /// The integer, when it is one that fits.
  package var int: Int64? {
    switch self {
    case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
    case .negative(let value): value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
    default: nil
    }
  }

  package var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
  package var text: String? { if case .text(let value) = self { value } else { nil } }
  package var array: [CBOR]? { if case .array(let value) = self { value } else { nil } }
  package var pairs: [Pair]? { if case .map(let value) = self { value } else { nil } }

  /// The value of a map's entry `key`.
  package subscript(key: CBOR) -> CBOR? { pairs?.first { $0.key == key }?.value }
  package subscript(key: String) -> CBOR? { self[.text(key)] }
  package subscript(key: Int64) -> CBOR? { self[.int(key)] }

  // MARK: - Decoding

  /// The one data item `bytes` hold; bytes after it are an error.
  package static func decode(_ bytes: [UInt8]) throws(DecodingError) -> CBOR {
    var reader = Reader(bytes: bytes)
    let value = try reader.item(depth: 0)
    guard reader.offset == bytes.count else {
      throw DecodingError(offset: reader.offset, reason: "\(bytes.count - reader.offset) bytes follow the item")
    }
    return value
  }

  /// The first data item of `bytes[start...]` and where it ends: for a COSE key followed by
  /// extensions inside authenticator data.
  package static func decodePrefix(_ bytes: [UInt8], from start: Int) throws(DecodingError) -> (CBOR, end: Int) {
    var reader = Reader(bytes: bytes, offset: start)
    let value = try reader.item(depth: 0)
    return (value, reader.offset)
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset = 0
    var items = 0

    init(bytes: [UInt8], offset: Int = 0) {
      self.bytes = bytes
      self.offset = offset
    }

    func fail(_ reason: String) -> DecodingError { DecodingError(offset: offset, reason: reason) }

    mutating func byte() throws(DecodingError) -> UInt8 {
      guard offset < bytes.count else { throw fail("the input ends inside an item") }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func take(_ count: UInt64) throws(DecodingError) -> ArraySlice<UInt8> {
      guard count <= UInt64(bytes.count - offset) else {
        throw fail("a length of \(count) runs past the end of the input")
      }
      defer { offset += Int(count) }
      return bytes[offset..<offset + Int(count)]
    }

    /// The argument of a head with additional information `info`.
    mutating func argument(_ info: UInt8) throws(DecodingError) -> UInt64 {
      switch info {
      case 0..<24: return UInt64(info)
      case 24...27:
        let width = 1 << (info - 24)
        return try take(UInt64(width)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      case 31: throw fail("indefinite lengths are not used by WebAuthn")
      default: throw fail("additional information \(info) is reserved")
      }
    }

    mutating func item(depth: Int) throws(DecodingError) -> CBOR {
      guard depth < CBOR.maximumDepth else { throw fail("items nest deeper than \(CBOR.maximumDepth) levels") }
      items += 1
      guard items <= CBOR.maximumItems else { throw fail("more than \(CBOR.maximumItems) items") }
      let head = try byte()
      let major = head >> 5
      let info = head & 0x1f
      if major == 7 {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 25, 26, 27: throw fail("floating-point numbers are not used by WebAuthn")
        default: throw fail("simple value \(info) is not supported")
        }
      }
      let argument = try argument(info)
      switch major {
      case 0: return .unsigned(argument)
      case 1: return .negative(argument)
      case 2: return .bytes(Array(try take(argument)))
      case 3:
        let slice = try take(argument)
        guard let text = String(validating: slice, as: UTF8.self) else { throw fail("a text string is not UTF-8") }
        return .text(text)
      case 4:
        // Each element takes at least a byte: a count beyond the bytes left cannot be right.
        guard argument <= UInt64(bytes.count - offset) else { throw fail("an array of \(argument) cannot fit") }
        var elements: [CBOR] = []
        for _ in 0..<argument { elements.append(try item(depth: depth + 1)) }
        return .array(elements)
      case 5:
        guard argument <= UInt64(bytes.count - offset) / 2 else { throw fail("a map of \(argument) cannot fit") }
        var pairs: [Pair] = []
        // A set, not a scan of `pairs`: a map of n entries costs n look-ups, not n² comparisons.
        var keys: Set<CBOR> = []
        for _ in 0..<argument {
          let keyOffset = offset
          let key = try item(depth: depth + 1)
          guard keys.insert(key).inserted else {
            throw DecodingError(offset: keyOffset, reason: "a map repeats a key")
          }
          pairs.append(Pair(key, try item(depth: depth + 1)))
        }
        return .map(pairs)
      default:
        return .tagged(argument, try item(depth: depth + 1))
      }
    }
  }

  // MARK: - Encoding

  /// The item in CBOR, every head in its shortest form, map entries in their order here.
  package var encoded: [UInt8] {
    var out: [UInt8] = []
    encode(into: &out)
    return out
  }

  private func encode(into out: inout [UInt8]) {
    switch self {
    case .unsigned(let value): Self.head(0, value, into: &out)
    case .negative(let value): Self.head(1, value, into: &out)
    case .bytes(let value):
      Self.head(2, UInt64(value.count), into: &out)
      out += value
    case .text(let value):
      Self.head(3, UInt64(value.utf8.count), into: &out)
      out += value.utf8
    case .array(let values):
      Self.head(4, UInt64(values.count), into: &out)
      for value in values { value.encode(into: &out) }
    case .map(let pairs):
      Self.head(5, UInt64(pairs.count), into: &out)
      for pair in pairs {
        pair.key.encode(into: &out)
        pair.value.encode(into: &out)
      }
    case .tagged(let tag, let value):
      Self.head(6, tag, into: &out)
      value.encode(into: &out)
    case .bool(let value): out.append(value ? 0xf5 : 0xf4)
    case .null: out.append(0xf6)
    }
  }

  private static func head(_ major: UInt8, _ argument: UInt64, into out: inout [UInt8]) {
    let type = major << 5
    switch argument {
    case 0..<24: out.append(type | UInt8(argument))
    case 24...0xff: out += [type | 24, UInt8(argument)]
    case 0x100...0xffff: out += [type | 25] + bigEndian(argument, width: 2)
    case 0x1_0000...0xffff_ffff: out += [type | 26] + bigEndian(argument, width: 4)
    default: out += [type | 27] + bigEndian(argument, width: 8)
    }
  }

  private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
    (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}
