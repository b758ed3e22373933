import SignInCrypto

/// One RSA-2048 key for every in-memory embedded backend and IdP the package's tests make:
/// generating a key per test costs a few hundred milliseconds each, and on two busy cores a
/// suite of them crowded out the tests that wait on the clock.
package enum TestSigningKey {
  /// Made once, on first use.
  package static let shared: RSAPrivateKey = {
    do { return try RSAPrivateKey.generate() } catch { fatalError("could not make the tests' RSA key: \(error)") }
  }()
}
