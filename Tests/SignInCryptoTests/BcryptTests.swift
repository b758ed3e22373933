import Testing

@testable import SignInCrypto

@Suite(.enabled(if: Bcrypt.isAvailable)) struct BcryptTests {
  /// A vector of the bcrypt test suites: "U*U" at cost 5.
  static let hash = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"

  @Test func theRightPasswordMatchesAndAnotherDoesNot() throws {
    #expect(try Bcrypt.matches("U*U", hash: Self.hash))
    #expect(try !Bcrypt.matches("U*V", hash: Self.hash))
  }

  @Test func aStringThatIsNoBcryptHashIsRefused() {
    #expect(throws: CryptoError.self) { try Bcrypt.matches("U*U", hash: "$6$salt$notbcrypt") }
  }

  #if os(Linux)
    @Test func aMissingLibcryptSaysWhatToInstall() {
      #expect {
        try Bcrypt.load(firstOf: ["libcrypt-signinkit-missing.so.1"])
      } throws: { error in
        let message = (error as? CryptoError)?.message ?? ""
        return message.contains("libcrypt-signinkit-missing.so.1") && message.contains("apt-get install libcrypt1")
      }
    }

    @Test func aLibraryWithoutCryptRIsNamed() {
      #expect {
        try Bcrypt.load(firstOf: ["libc.so.6"])
      } throws: { error in
        (error as? CryptoError)?.message.contains("libc.so.6 has no function crypt_r") == true
      }
    }
  #endif
}
