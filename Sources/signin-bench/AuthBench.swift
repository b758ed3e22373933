import Foundation
import SignInCrypto
import SignInKit
import SignInKitEmbedded
import Synchronization

/// The `Auth` actor's hot paths on the embedded backend: a refresh storm, a cold restore from
/// disk, and a password sign-in against raw scrypt.
enum AuthBench {
  /// Counts the refreshes that reach the backend.
  final class CountingBackend: AuthBackendDecorator {
    let wrapped: any AuthBackend
    let refreshes = Atomic<Int>(0)
    init(wrapped: EmbeddedBackend) { self.wrapped = wrapped }

    func intercept<Result: Sendable>(
      _ call: AuthBackendCall, forward: () async throws -> Result
    ) async throws -> Result {
      if call == .refresh { refreshes.add(1, ordering: .relaxed) }
      return try await forward()
    }
  }

  /// A shared integer (the clock offset, in seconds).
  final class Counter: Sendable {
    let value = Atomic<Int>(0)
  }

  static let fastScrypt = ScryptParameters(n: 1 << 10, r: 8, p: 1)

  /// `callers` concurrent `idToken()` calls on an expired token: refreshes made, and latency.
  static func refreshStorm(callers: Int) async throws -> [BenchResult] {
    let backend = CountingBackend(
      wrapped: try EmbeddedBackend(directory: nil, configuration: .init(scrypt: fastScrypt)))
    let offset = Counter()
    let auth = Auth(
      backend: backend, store: InMemorySessionStore(),
      configuration: AuthConfiguration(refreshesAutomatically: false),
      now: { Date().addingTimeInterval(TimeInterval(offset.value.load(ordering: .relaxed))) })
    _ = try await auth.signUp(email: "storm@example.com", password: "correct horse")
    // Baseline: one refresh alone.
    let lone = try await Measure.median(runs: 11) { _ = try await auth.idToken(forceRefresh: true) }
    let before = backend.refreshes.load(ordering: .relaxed)
    offset.value.store(7200, ordering: .relaxed)  // two hours later: the token has expired
    let latencies = try await withThrowingTaskGroup(of: Double.self) { group in
      for _ in 0..<callers {
        group.addTask { try await Measure.time { _ = try await auth.idToken() } }
      }
      var all: [Double] = []
      for try await latency in group { all.append(latency) }
      return all
    }
    let refreshes = backend.refreshes.load(ordering: .relaxed) - before
    await auth.shutdown()
    let p50 = Measure.percentile(latencies, 0.5)
    let p99 = Measure.percentile(latencies, 0.99)
    return [
      BenchResult(
        name: "2 refresh storm: \(callers) idToken() on an expired token", subject: "refreshes made",
        value: Double(refreshes), baselineName: "required", baseline: 1, unit: "requests", target: "= 1",
        met: refreshes == 1, note: nil),
      BenchResult(
        name: "2 refresh storm latency", subject: "p50", value: p50, baselineName: "one refresh alone", baseline: lone,
        unit: "ms", target: nil, met: nil, note: "p99 \(String(format: "%.2f", p99)) ms"),
    ]
  }

  /// Cold `restorePreviousSignIn()` with a valid session on disk, against reading the file.
  static func coldRestore(runs: Int) async throws -> [BenchResult] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = try EmbeddedBackend(directory: nil, configuration: .init(scrypt: fastScrypt))
    let first = Auth(backend: backend, store: FileSessionStore(directory: folder))
    _ = try await first.signUp(email: "restore@example.com", password: "correct horse")
    await first.shutdown()
    let file = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .first { $0.pathExtension == "json" }
    let read = try await Measure.median(runs: runs) { _ = try file.map { try Data(contentsOf: $0) } }
    let restore = try await Measure.median(runs: runs) {
      let auth = Auth(backend: backend, store: FileSessionStore(directory: folder))
      guard try await auth.restorePreviousSignIn() != nil else { throw AuthError(.internal, "nothing restored") }
      await auth.shutdown()
    }
    return [
      BenchResult(
        name: "3 cold restore from disk (median of \(runs))", subject: "restorePreviousSignIn", value: restore,
        baselineName: "reading the session file", baseline: read, unit: "ms", target: "< 5 ms", met: restore < 5,
        note: nil)
    ]
  }

  /// An embedded password sign-in (on disk, and in memory) against one raw scrypt with the
  /// same parameters. The three are measured in turn within each run, so that drift in the
  /// machine's speed over the seconds this takes (±10% seen) lands on all three alike.
  static func passwordSignIn(runs: Int) async throws -> [BenchResult] {
    let parameters = ScryptParameters()
    let salt = try Crypto.randomBytes(16)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = try EmbeddedBackend(directory: folder, configuration: .init(scrypt: parameters))
    let memory = try EmbeddedBackend(directory: nil, configuration: .init(scrypt: parameters))
    let request = PasswordSignInRequest(email: "bench@example.com", password: "correct horse")
    for each in [backend, memory] {
      _ = try await each.signUp(SignUpRequest(email: request.email, password: request.password))
    }
    var scrypts: [Double] = []
    var signIns: [Double] = []
    var inMemories: [Double] = []
    for _ in 0..<runs {
      scrypts.append(
        try await Measure.time {
          _ = try Crypto.scrypt(
            password: Array(request.password.utf8), salt: salt, n: parameters.n, r: parameters.r, p: parameters.p,
            length: 32)
        })
      signIns.append(try await Measure.time { _ = try await backend.signInWithPassword(request) })
      inMemories.append(try await Measure.time { _ = try await memory.signInWithPassword(request) })
    }
    await backend.close()
    let scrypt = Measure.percentile(scrypts, 0.5)
    let signIn = Measure.percentile(signIns, 0.5)
    let inMemory = Measure.percentile(inMemories, 0.5)
    return [
      BenchResult(
        name: "4 password sign-in (scrypt N=\(parameters.n), median of \(runs))", subject: "embedded sign-in",
        value: signIn, baselineName: "raw scrypt", baseline: scrypt, unit: "ms", target: "≤ 1.1x",
        met: signIn <= scrypt * 1.1, note: nil),
      BenchResult(
        name: "4 password sign-in", subject: "the same, backend in memory", value: inMemory, baselineName: "raw scrypt",
        baseline: scrypt, unit: "ms", target: nil, met: nil,
        note: "the difference to the row above is the durable commit (an SQLite transaction, synced)"),
    ]
  }
}
