import Foundation

/// What a sign-in form checks before it calls the backend, so a person hears about a typo at
/// once instead of after a round trip.
///
/// - Concurrency: stateless.
enum FieldChecks {
  /// The shortest password Firebase accepts when the project sets no policy of its own.
  static let minimumPasswordLength = 6

  /// Whether `text` has the shape of an email address: one `@`, something before it, and a
  /// domain with a dot that neither starts nor ends it; no spaces.
  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
    let domain = parts[1]
    return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
  }

  /// The six digits of a texted or authenticator code, spaces dropped; `nil` for anything else.
  static func code(_ text: String) -> String? {
    let digits = text.filter { !$0.isWhitespace }
    guard digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return digits
  }

  /// Why a phone number was refused.
  struct PhoneProblem: Error, Equatable {
    let message: String
  }

  /// `number` in E.164 form: `+`, the country code, then the number, digits only. Spaces,
  /// dashes, dots and brackets are dropped; a number without `+` takes `countryCode` (a leading
  /// trunk `0` goes, as in `07700 900123` in the UK).
  static func e164(_ number: String, countryCode: String) -> Result<String, PhoneProblem> {
    let trimmed = number.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return .failure(PhoneProblem(message: "Enter your phone number.")) }
    let kept = trimmed.filter { !" -.()".contains($0) }
    let hasPlus = kept.hasPrefix("+")
    let digits = hasPlus ? String(kept.dropFirst()) : kept
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      return .failure(PhoneProblem(message: "\(trimmed) is not a phone number; use digits only."))
    }
    let full: String
    if hasPlus {
      full = digits
    } else {
      let country = countryCode.filter { $0.isASCII && $0.isNumber }
      guard !country.isEmpty else {
        return .failure(PhoneProblem(message: "Choose your country, or start the number with + and its country code."))
      }
      full = country + (digits.hasPrefix("0") ? String(digits.drop { $0 == "0" }) : digits)
    }
    guard (8...15).contains(full.count), !full.hasPrefix("0") else {
      return .failure(
        PhoneProblem(message: "+\(full) is not a full phone number; check the country code and the number."))
    }
    return .success("+" + full)
  }
}
