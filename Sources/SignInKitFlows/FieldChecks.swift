import Foundation
import SignInKit

/// What a sign-in form checks before it calls the backend, so a person hears about a typo at
/// once instead of after a round trip.
///
/// - Concurrency: stateless.
package enum FieldChecks {
  /// Whether `text` has the shape of an email address: one `@`, something before it, and a
  /// domain with a dot that neither starts nor ends it; no spaces.
  package static func isEmail(_ text: String) -> Bool {
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

  /// Why a phone number was refused: the words to say, and the number as typed when they
  /// name it.
  struct PhoneProblem: Error, Equatable {
    let text: FlowText
    var number: String?

    func message(in strings: FlowStrings) -> String {
      number.map { strings(text, $0) } ?? strings(text)
    }
  }

  /// `number` in E.164 form: `+`, the country code, then the number, digits only. Spaces,
  /// dashes, dots and brackets are dropped; a number without `+` takes `countryCode` (a leading
  /// trunk `0` goes, as in `07700 900123` in the UK).
  static func e164(_ number: String, countryCode: String) -> Result<String, PhoneProblem> {
    let trimmed = number.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return .failure(PhoneProblem(text: .enterPhoneNumber)) }
    let kept = trimmed.filter { !" -.()".contains($0) }
    let hasPlus = kept.hasPrefix("+")
    let digits = hasPlus ? String(kept.dropFirst()) : kept
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      return .failure(PhoneProblem(text: .phoneDigitsOnly, number: trimmed))
    }
    let full: String
    if hasPlus {
      full = digits
    } else {
      let country = countryCode.filter { $0.isASCII && $0.isNumber }
      guard !country.isEmpty else {
        return .failure(PhoneProblem(text: .phoneNeedsCountry))
      }
      full = country + (digits.hasPrefix("0") ? String(digits.drop { $0 == "0" }) : digits)
    }
    guard (8...15).contains(full.count), !full.hasPrefix("0") else {
      return .failure(PhoneProblem(text: .phoneIncomplete, number: "+" + full))
    }
    return .success("+" + full)
  }

  /// What a new password lacks under `auth`'s password policy (read once from the backend; when
  /// it cannot be read, Firebase's default of six characters), in words; `nil` when it has
  /// everything.
  package static func newPasswordProblem(_ password: String, auth: Auth, in strings: FlowStrings) async -> String? {
    let policy = (try? await auth.passwordPolicy()) ?? .firebaseDefault
    let unmet = policy.unmet(by: password)
    guard !unmet.isEmpty else { return nil }
    let parts = unmet.map { requirement in
      switch requirement {
      case .minimumLength(let count): strings(.requirementMinimumLength, count)
      case .maximumLength(let count): strings(.requirementMaximumLength, count)
      case .lowercase: strings(.requirementLowercase)
      case .uppercase: strings(.requirementUppercase)
      case .digit: strings(.requirementDigit)
      case .symbol: strings(.requirementSymbol)
      }
    }
    return strings(.passwordNeeds, strings.list(parts))
  }
}
