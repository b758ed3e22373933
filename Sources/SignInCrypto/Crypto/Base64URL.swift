import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Both directions map bytes in one pass: every ID token the embedded backend signs encodes
/// three parts, and Foundation's string replacement on Linux went through `NSString` three
/// times per part.
package enum Base64URL {
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let base64 = Data(bytes).base64EncodedData()
    var url = [UInt8]()
    url.reserveCapacity(base64.count)
    for byte in base64 {
      switch byte {
      case UInt8(ascii: "+"): url.append(UInt8(ascii: "-"))
      case UInt8(ascii: "/"): url.append(UInt8(ascii: "_"))
      case UInt8(ascii: "="): continue
      default: url.append(byte)
      }
    }
    return String(decoding: url, as: UTF8.self)
  }

  /// The bytes of `text`, or `nil` when it is not base64url (padding is accepted at the end).
  package static func decode(_ text: String) -> [UInt8]? {
    var base64 = [UInt8]()
    base64.reserveCapacity(text.utf8.count + 3)
    var padded = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "="): padded = true
      case _ where padded: return nil
      case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
      default: base64.append(byte)
      }
    }
    base64 += repeatElement(UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: Data(base64)).map(Array.init)
  }
}
