import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
package enum Base64URL {
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// The bytes of `text`, or `nil` when it is not base64url (padding is accepted).
  package static func decode(_ text: String) -> [UInt8]? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    guard !base64.contains("=") || base64.hasSuffix("=") else { return nil }
    base64 = base64.replacingOccurrences(of: "=", with: "")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64).map(Array.init)
  }
}
