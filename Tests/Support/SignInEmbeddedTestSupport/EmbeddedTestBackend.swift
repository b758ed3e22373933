import Foundation
import SignInKit
import SignInKitEmbedded
import SignInKitTesting

/// The embedded backend as the tests make it: a cheap hash, the tests' shared signing key, and a
/// wall clock they move by hand.
package enum EmbeddedTestBackend {
  /// Fast scrypt, and the tests' shared signing key for in-memory backends.
  package static let fast = {
    var configuration = EmbeddedBackend.Configuration(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1))
    configuration.signingKey = TestSigningKey.shared
    // The tests' app continues its emailed links to its own site.
    configuration.authorizedDomains = ["example.com"]
    return configuration
  }()

  package static func backend(
    _ configuration: EmbeddedBackend.Configuration = fast, directory: URL? = nil,
    clock: TestDate = TestDate()
  ) throws -> EmbeddedBackend {
    try EmbeddedBackend(directory: directory, configuration: configuration, now: { clock.now })
  }
}
