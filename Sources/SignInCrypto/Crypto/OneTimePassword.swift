import Foundation

/// HOTP (RFC 4226) and TOTP (RFC 6238) codes over HMAC-SHA1 from the crypto facade: what an
/// authenticator app shows, and what a backend checks a typed code against.
package enum OneTimePassword {
  /// The `digits`-digit code for `counter` (RFC 4226 §5.3, dynamic truncation).
  package static func hotp(secret: [UInt8], counter: UInt64, digits: Int = 6) -> String {
    let message = (0..<8).reversed().map { UInt8(truncatingIfNeeded: counter >> (UInt64($0) * 8)) }
    let mac = Crypto.hmacSHA1(key: secret, data: message)
    let offset = Int(mac[mac.count - 1] & 0x0F)
    let binary =
      UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
      | UInt32(mac[offset + 3])
    var modulus: UInt64 = 1
    for _ in 0..<digits { modulus *= 10 }
    let code = String(UInt64(binary) % modulus)
    return String(repeating: "0", count: max(0, digits - code.count)) + code
  }

  /// The time step `date` falls in, for `period` seconds (RFC 6238 §4, T0 = 0).
  package static func step(at date: Date, period: Int = 30) -> UInt64 {
    UInt64(max(0, date.timeIntervalSince1970) / Double(period))
  }

  /// The TOTP code at `date`.
  package static func totp(secret: [UInt8], at date: Date, period: Int = 30, digits: Int = 6) -> String {
    hotp(secret: secret, counter: step(at: date, period: period), digits: digits)
  }

  /// Whether `code` is the TOTP code at `date` or at one of the `window` steps either side (a
  /// phone's clock may be a little off), compared in constant time.
  package static func matches(
    _ code: String, secret: [UInt8], at date: Date, period: Int = 30, digits: Int = 6, window: Int = 1
  ) -> Bool {
    matchedStep(code, secret: secret, at: date, period: period, digits: digits, window: window) != nil
  }

  /// The time step whose code `code` is, among the steps at `date` and `window` either side and
  /// after `lastUsed`, or `nil`. A verifier keeps the step it accepted and passes it as
  /// `lastUsed` next time, so a code is never accepted twice (RFC 6238 §5.2). Every candidate is
  /// computed and compared in constant time.
  package static func matchedStep(
    _ code: String, secret: [UInt8], at date: Date, period: Int = 30, digits: Int = 6, window: Int = 1,
    after lastUsed: UInt64? = nil
  ) -> UInt64? {
    let current = Int64(step(at: date, period: period))
    var matched: UInt64?
    for delta in -Int64(window)...Int64(window) where current + delta >= 0 {
      let counter = UInt64(current + delta)
      let expected = hotp(secret: secret, counter: counter, digits: digits)
      if equalInConstantTime(Array(expected.utf8), Array(code.utf8)), lastUsed.map({ counter > $0 }) ?? true {
        matched = counter
      }
    }
    return matched
  }

  private static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }
}
