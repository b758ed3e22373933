import Testing

@testable import SignInKitFlows

@Suite struct FieldChecksTests {
  @Test(arguments: [
    ("+1 555 555 0123", "", "+15555550123"),
    ("555-555-0123", "1", "+15555550123"),
    ("07700 900123", "44", "+447700900123"),
    ("(030) 123456", "+49", "+4930123456"),
  ])
  func aNumberBecomesE164(number: String, country: String, expected: String) {
    #expect(FieldChecks.e164(number, countryCode: country) == .success(expected))
  }

  @Test(arguments: [
    ("", "1", "Enter your phone number."),
    ("555-0123", "", "Choose your country, or start the number with + and its country code."),
    ("555-CALL", "1", "555-CALL is not a phone number; use digits only."),
    ("+1 555", "", "+1555 is not a full phone number; check the country code and the number."),
  ])
  func aNumberThatIsNotOneSaysWhy(number: String, country: String, message: String) {
    guard case .failure(let problem) = FieldChecks.e164(number, countryCode: country) else {
      Issue.record("\(number) was taken")
      return
    }
    #expect(problem.message(in: english) == message)
  }

  @Test(arguments: ["ada@example.com", "a.b+c@sub.example.co.uk"])
  func anEmailHasItsShape(_ email: String) {
    #expect(FieldChecks.isEmail(email))
  }

  @Test(arguments: ["ada", "ada@", "@example.com", "ada@example", "ada@.com", "ada@example.", "a da@example.com"])
  func aMalformedEmailIsNotOne(_ email: String) {
    #expect(!FieldChecks.isEmail(email))
  }
}
