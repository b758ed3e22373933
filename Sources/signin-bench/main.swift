// Benchmarks, printed as ratios against a baseline measured in the same run.
// Run with: swift run -c release signin-bench
import Foundation
import SignInKit
import SignInKitEmbedded

/// The median of `runs` timings of `body`, in milliseconds.
func median(runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
  var samples: [Double] = []
  let clock = ContinuousClock()
  for _ in 0..<runs {
    let elapsed = try await clock.measure { try await body() }
    let (seconds, attoseconds) = elapsed.components
    samples.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
  }
  return samples.sorted()[samples.count / 2]
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

let parameters = ScryptParameters()  // the embedded backend's defaults
let runs = 21

// Baseline: one raw scrypt with the same parameters, salt and output length as the backend.
let salt = try Crypto.randomBytes(16)
let scryptMilliseconds = try await median(runs: runs) {
  _ = try Crypto.scrypt(
    password: Array("correct horse".utf8), salt: salt, n: parameters.n, r: parameters.r,
    p: parameters.p, length: 32)
}

// Subject: a full embedded password sign-in (lookup, scrypt check, token minting, atomic write).
let directory = FileManager.default.temporaryDirectory
  .appendingPathComponent("signin-bench-\(UUID().uuidString)", isDirectory: true)
defer { try? FileManager.default.removeItem(at: directory) }
let backend = try EmbeddedBackend(
  directory: directory, configuration: EmbeddedBackend.Configuration(scrypt: parameters))
_ = try await backend.signUp(SignUpRequest(email: "bench@example.com", password: "correct horse"))
let signInMilliseconds = try await median(runs: runs) {
  _ = try await backend.signInWithPassword(
    PasswordSignInRequest(email: "bench@example.com", password: "correct horse"))
}
await backend.close()

print("embedded password sign-in vs raw scrypt (N=\(parameters.n), r=\(parameters.r), p=\(parameters.p)), median of \(runs)")
print("  raw scrypt:         \(format(scryptMilliseconds)) ms  (baseline)")
print("  embedded sign-in:   \(format(signInMilliseconds)) ms")
print("  ratio:              \(format(signInMilliseconds / scryptMilliseconds))x")
