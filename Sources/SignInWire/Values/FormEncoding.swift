import Foundation

/// `application/x-www-form-urlencoded`, as OAuth, Secure Token and `signInWithIdp`'s `postBody`
/// use it: every byte but the unreserved ones percent-encoded when written (so `+`, `/` and `=` in tokens
/// survive the trip); `+` read as a space.
///
/// - Concurrency: stateless, any isolation.
package enum FormEncoding {
  private static let unreserved = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

  package static func encode(_ fields: [(String, String)]) -> String {
    fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  /// The fields of `text`, percent-decoded, in order; a field without `=` has an empty value.
  package static func decode(_ text: String) -> [(name: String, value: String)] {
    text.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
      }
      return (parts[0], parts.count > 1 ? parts[1] : "")
    }
  }

  /// The first value of each field of `text` (``decode(_:)``).
  package static func fields(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for (name, value) in decode(text) where fields[name] == nil { fields[name] = value }
    return fields
  }

  package static func escape(_ value: String) -> String {
    var out = ""
    for byte in value.utf8 {
      if unreserved.contains(byte) {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
