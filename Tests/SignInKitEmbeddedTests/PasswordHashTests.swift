import Foundation
import Testing

@testable import SignInKitEmbedded

@Suite struct PasswordHashTests {
  static let cheap = ScryptParameters(n: 1 << 10, r: 8, p: 1)

  @Test func aScryptHashNamesItsAlgorithmAndVerifies() throws {
    let hash = try PasswordHash.make("correct horse", parameters: Self.cheap, scryptIsAvailable: true)
    #expect(hash.algorithm == .scrypt && hash.n == 1 << 10 && hash.iterations == nil)
    #expect(try hash.matches("correct horse"))
    #expect(try !hash.matches("correct horsE"))
    let json = String(decoding: try JSONEncoder().encode(hash), as: UTF8.self)
    #expect(json.contains(#""algorithm":"scrypt""#))
  }

  @Test func withoutScryptTheHashIsPBKDF2AndVerifiesAnywhere() throws {
    let hash = try PasswordHash.make("correct horse", parameters: Self.cheap, scryptIsAvailable: false)
    #expect(hash.algorithm == .pbkdf2SHA256 && hash.iterations == PasswordHash.pbkdf2Iterations)
    #expect(try hash.matches("correct horse"))
    #expect(try !hash.matches("wrong"))
    let decoded = try JSONDecoder().decode(PasswordHash.self, from: try JSONEncoder().encode(hash))
    #expect(decoded == hash)
    // Where scrypt exists, a PBKDF2 hash is made again as scrypt at the next sign-in.
    #expect(hash.isWeaker(than: Self.cheap, scryptIsAvailable: true))
    #expect(!hash.isWeaker(than: Self.cheap, scryptIsAvailable: false))
  }

  @Test func aHashStoredBeforeTheAlgorithmWasRecordedIsScrypt() throws {
    let made = try PasswordHash.make("correct horse", parameters: Self.cheap, scryptIsAvailable: true)
    let old = #"{"salt":"\#(made.salt)","hash":"\#(made.hash)","n":1024,"r":8,"p":1}"#
    let decoded = try JSONDecoder().decode(PasswordHash.self, from: Data(old.utf8))
    #expect(decoded.algorithm == .scrypt)
    #expect(try decoded.matches("correct horse"))
  }

  @Test func aPBKDF2HashWithoutRoundsNeverMatches() throws {
    let broken = PasswordHash(algorithm: .pbkdf2SHA256, salt: "c2FsdA", hash: "aGFzaA")
    #expect(try !broken.matches("anything"))
  }
}
