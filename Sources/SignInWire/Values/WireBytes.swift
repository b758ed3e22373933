import Foundation

/// Bytes in a JSON string, as Google's APIs carry `bytes` fields: standard base64 with padding
/// when sent; either alphabet, padded or not, when read (WebAuthn's own JSON uses base64url).
///
/// - Concurrency: stateless.
package enum WireBytes {
  /// `bytes` in standard base64.
  package static func encode(_ bytes: some Collection<UInt8>) -> String { Data(bytes).base64EncodedString() }

  /// The bytes of `text`, standard base64 or base64url, padded or not; `nil` when it is neither.
  package static func decode(_ text: String) -> [UInt8]? {
    var normalized = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while normalized.hasSuffix("=") { normalized.removeLast() }
    guard normalized.utf8.count % 4 != 1 else { return nil }
    normalized += String(repeating: "=", count: (4 - normalized.utf8.count % 4) % 4)
    return Data(base64Encoded: normalized).map(Array.init)
  }
}
