/// Base32 (RFC 4648 §6), the alphabet authenticator apps read TOTP secrets in.
package enum Base32 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// `bytes` in base32, with `=` padding to a multiple of eight characters when `padded`.
  package static func encode(_ bytes: some Sequence<UInt8>, padded: Bool = true) -> String {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = buffer << 8 | UInt32(byte)
      bits += 8
      while bits >= 5 {
        output.append(alphabet[Int(buffer >> UInt32(bits - 5) & 31)])
        bits -= 5
      }
    }
    if bits > 0 { output.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)]) }
    if padded { output += Array(repeating: UInt8(ascii: "="), count: (8 - output.count % 8) % 8) }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes of `text`, or `nil` when it is not base32. Case, spaces and padding are
  /// ignored, as authenticator apps ignore them.
  package static func decode(_ text: String) -> [UInt8]? {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for character in text.uppercased().utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
      guard let value = alphabet.firstIndex(of: character) else { return nil }
      buffer = buffer << 5 | UInt32(value)
      bits += 5
      if bits >= 8 {
        output.append(UInt8(buffer >> UInt32(bits - 8) & 0xFF))
        bits -= 8
      }
    }
    return output
  }
}
