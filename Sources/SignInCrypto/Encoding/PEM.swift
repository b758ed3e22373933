import Foundation

/// PEM armour (RFC 7468): base64 of DER between `-----BEGIN label-----` and `-----END label-----`
/// lines, 64 characters a line.
///
/// - Concurrency: stateless functions, any isolation.
enum PEM {
  static func encode(_ der: [UInt8], label: String) -> String {
    let base64 = Data(der).base64EncodedString()
    var lines = ["-----BEGIN \(label)-----"]
    var rest = Substring(base64)
    while !rest.isEmpty {
      lines.append(String(rest.prefix(64)))
      rest = rest.dropFirst(64)
    }
    lines.append("-----END \(label)-----")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The DER of the first `label` block in `text`.
  static func decode(_ text: String, label: String) throws -> [UInt8] {
    let begin = "-----BEGIN \(label)-----"
    let end = "-----END \(label)-----"
    guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex),
      let data = Data(
        base64Encoded: text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }),
      !data.isEmpty
    else {
      throw CryptoError("not a PEM \(label) block; pass the whole -----BEGIN … END----- text")
    }
    return Array(data)
  }
}
