import Foundation
import Testing

@testable import SignInKit

struct UserTests {
  static let ada = User(
    uid: "u1", email: "ada@example.com", emailVerified: true, displayName: "Ada",
    photoURL: URL(string: "https://example.com/ada.png"),
    providers: [ProviderInfo(providerID: .password, rawID: "ada@example.com", email: "ada@example.com")],
    createdAt: Date(timeIntervalSince1970: 1_700_000_000),
    lastSignInAt: Date(timeIntervalSince1970: 1_700_000_100),
    secondFactors: [MultiFactorInfo(enrollmentID: "e1", kind: .totp, displayName: "phone app")])

  @Test func aChangedCopyLeavesTheOtherCopyAsItWas() {
    var renamed = Self.ada
    renamed.displayName = "Countess"
    renamed.secondFactors = []
    #expect(Self.ada.displayName == "Ada")
    #expect(Self.ada.secondFactors.count == 1)
    #expect(renamed.displayName == "Countess")
    #expect(renamed.secondFactors.isEmpty)
    #expect(renamed != Self.ada)
    renamed.displayName = "Ada"
    renamed.secondFactors = Self.ada.secondFactors
    #expect(renamed == Self.ada)
    #expect(renamed.hashValue == Self.ada.hashValue)
  }

  @Test func theStoredFormKeepsTheKeysOfSessionsStoredBefore() throws {
    var user = Self.ada
    user.signedInAnonymously = false
    let data = try JSONEncoder().encode(user)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "uid", "email", "emailVerified", "displayName", "photoURL", "providers", "createdAt",
        "lastSignInAt", "enrolledFactors", "signedInAnonymously",
      ])
    #expect(try JSONDecoder().decode(User.self, from: data) == user)
  }

  @Test func aSessionStoredWithoutSecondFactorsOrSignInKindStillReads() throws {
    let user = try JSONDecoder().decode(
      User.self, from: Data(#"{"uid":"u1","emailVerified":false,"providers":[]}"#.utf8))
    #expect(user.secondFactors.isEmpty)
    #expect(user.isAnonymous)
  }

  @Test func aPhoneUserIsNotAnonymousAndIsDescribedByAMaskedNumber() {
    let user = User(uid: "u2", providers: [], phoneNumber: "+15555550100")
    #expect(!user.isAnonymous)
    #expect(user.description == "+*******0100 (u2)")
  }

  @Test(arguments: [
    ("+15555550123", "+*******0123"), ("+*******0123", "+*******0123"), ("+44 7700 900123", "+** **** **0123"),
    ("+123", "+123"),
  ])
  func aNumberIsMaskedToItsLastFourDigitsOnce(number: String, masked: String) {
    #expect(MultiFactorInfo.masked(number) == masked)
    #expect(MultiFactorInfo.masked(masked) == masked)
  }
}
