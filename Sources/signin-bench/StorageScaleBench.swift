import Foundation
import SignInKit
import SignInKitEmbedded

/// The embedded backend's storage at scale: a sign-up, a password sign-in, a lookup and a
/// refresh on a data folder of `large` accounts, against the same calls on one of `small`
/// accounts, in the same run. Passwords are hashed at a test cost (scrypt N=2^10), so storage
/// shows; both backends keep their folders on the same disk and commit durably.
///
/// The calls alternate between the two folders in rounds, so a slower stretch of the machine
/// lands on both sides alike. Each figure is the median of every call of its kind.
enum StorageScaleBench {
  static func run(small: Int, large: Int, rounds: Int, callsPerRound: Int) async throws -> [BenchResult] {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "signin-bench-storage-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    let configuration = EmbeddedBackend.Configuration(scrypt: AuthBench.fastScrypt)
    let smaller = try EmbeddedBackend(directory: base.appendingPathComponent("small"), configuration: configuration)
    let larger = try EmbeddedBackend(directory: base.appendingPathComponent("large"), configuration: configuration)
    try await fill(smaller, with: small)
    try await fill(larger, with: large)

    var samples: [String: (small: [Double], large: [Double])] = [:]
    for round in 0..<rounds {
      // Which folder goes first alternates too.
      let order = round.isMultiple(of: 2) ? [(smaller, true), (larger, false)] : [(larger, false), (smaller, true)]
      for (backend, isSmall) in order {
        for (kind, milliseconds) in try await calls(on: backend, round: round, count: callsPerRound) {
          if isSmall {
            samples[kind, default: ([], [])].small += milliseconds
          } else {
            samples[kind, default: ([], [])].large += milliseconds
          }
        }
      }
    }
    await smaller.close()
    await larger.close()
    return ["create", "password sign-in", "lookup", "refresh"].map { kind in
      let atLarge = Measure.percentile(samples[kind]?.large ?? [], 0.5)
      let atSmall = Measure.percentile(samples[kind]?.small ?? [], 0.5)
      return BenchResult(
        name: "8 embedded storage: \(kind) (median of \(rounds * callsPerRound))",
        subject: "at \(large.formatted()) accounts", value: atLarge,
        baselineName: "at \(small.formatted())", baseline: atSmall, unit: "ms", target: "≤ 1.3x",
        met: atLarge <= atSmall * 1.3,
        note: kind == "create" ? "each includes a scrypt at N=2^10 and an RS256 signature" : nil)
    }
  }

  /// Adds `count` accounts with an email and no password, 1,000 to a transaction, the way
  /// `accounts:batchCreate` stores an upload.
  private static func fill(_ backend: EmbeddedBackend, with count: Int) async throws {
    var next = 0
    while next < count {
      let batch = (next..<min(count, next + 1000)).map { index in
        var account = ImportedAccount(uid: "bulk-\(index)")
        account.email = "bulk-\(index)@example.com"
        return account
      }
      let refused = try await backend.adminImport(batch, allowOverwrite: false)
      guard refused.isEmpty else { throw BenchError("filling the bench folder: \(refused.first!.message)") }
      next += batch.count
    }
    // The signing key is made on first use: make it before anything is timed.
    _ = try await backend.signUp(SignUpRequest())
  }

  /// `count` of each call on `backend`, timed; the accounts they use are new to this round.
  private static func calls(on backend: EmbeddedBackend, round: Int, count: Int) async throws -> [(String, [Double])] {
    var created: [(email: String, session: SignInResponse)] = []
    var creates: [Double] = []
    for index in 0..<count {
      let email = "timed-\(round)-\(index)@example.com"
      var session: SignInResponse?
      creates.append(
        try await Measure.time {
          session = try await backend.signUp(SignUpRequest(email: email, password: "correct horse"))
        })
      created.append((email, session!))
    }
    var signIns: [Double] = []
    var lookups: [Double] = []
    var refreshes: [Double] = []
    for (email, session) in created {
      signIns.append(
        try await Measure.time {
          _ = try await backend.signInWithPassword(PasswordSignInRequest(email: email, password: "correct horse"))
        })
      lookups.append(
        try await Measure.time { _ = try await backend.lookup(LookupRequest(idToken: session.tokens.idToken)) })
      refreshes.append(
        try await Measure.time {
          _ = try await backend.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
        })
    }
    return [("create", creates), ("password sign-in", signIns), ("lookup", lookups), ("refresh", refreshes)]
  }
}
