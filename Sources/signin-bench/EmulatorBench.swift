import Foundation
import SignInCrypto
import SignInEmulator
import SignInKit
import SignInKitEmbedded
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `signin serve` as a test server: `clients` concurrent clients each doing a sign-up, a sign-in
/// and a refresh over loopback to a `FirebaseEmulatorServer`. The clients are
/// ``LoadConnection``s on threads of their own, so the figure is the server's; one more line
/// makes the same calls through `FirebaseBackend` (URLSession), for what an app's own test suite
/// sees.
///
/// At the test hash cost the requests/s are held against the floor every request pays: one
/// RSA-2048 signature (each of the three calls issues an ID token), measured in this run on every
/// core with the backend's own signing code. At Firebase's hash cost the same calls are held
/// against the same calls made on the embedded backend in process: what HTTP adds. Then the RSS
/// of a separate `signin serve` process after `requests` more requests.
enum EmulatorBench {
  static func run(clients: Int, rounds: Int, firebaseRounds: Int, requests: Int) async throws -> [BenchResult] {
    let floor = try await signingFloor(signatures: 4_000)
    let cheap = try await served(scrypt: .test, clients: clients, rounds: rounds, client: .sockets)
    let name = "7 signin serve: \(clients) clients × sign-up, sign-in, refresh"
    let ratio = cheap.perSecond / floor
    var results = [
      BenchResult(
        name: name + " (test hash cost)", subject: "over HTTP", value: cheap.perSecond,
        baselineName: "RSA-2048 signing floor (all cores)", baseline: floor, unit: "requests/s",
        target: "≥ 0.3x, p99 ≤ 50 ms", met: ratio >= 0.3 && cheap.p99 <= 50,
        note: String(format: "p50 %.2f ms, p99 %.2f ms", cheap.p50, cheap.p99))
    ]

    // The same mix through the client an app's test suite would use: what URLSession adds.
    let app = try await served(scrypt: .test, clients: clients, rounds: rounds, client: .firebaseBackend)
    results.append(
      BenchResult(
        name: name + " (test hash cost, FirebaseBackend clients)", subject: "over HTTP via URLSession",
        value: app.perSecond, baselineName: "socket clients", baseline: cheap.perSecond, unit: "requests/s",
        target: nil, met: nil, note: String(format: "p50 %.2f ms, p99 %.2f ms", app.p50, app.p99)))

    let costly = try await served(scrypt: .firebase, clients: clients, rounds: firebaseRounds, client: .sockets)
    let direct = try await measure(
      try EmbeddedBackend(directory: nil, configuration: .init(scrypt: .firebase)), clients: clients,
      rounds: firebaseRounds, tag: "direct")
    results.append(
      BenchResult(
        name: name + " (Firebase's hash cost)", subject: "over HTTP", value: costly.perSecond,
        baselineName: "in process", baseline: direct.perSecond, unit: "requests/s", target: nil, met: nil,
        note: String(
          format: "p50 %.2f ms vs %.2f ms, p99 %.2f ms vs %.2f ms", costly.p50, direct.p50, costly.p99, direct.p99)))

    // Memory: a `signin serve` process of its own, so the figure is the server's alone (this
    // process also holds URLSession's caches).
    results.append(try await servedMemory(requests: requests))
    return results
  }

  /// RSA-2048 signatures per second with the backend's signing code, on every core at once.
  private static func signingFloor(signatures: Int) async throws -> Double {
    let key = try RSAPrivateKey.generate()
    let message = Array(String(repeating: "a", count: 600).utf8)
    _ = try key.signRS256(message)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let started = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for core in 0..<cores {
        group.addTask {
          for _ in stride(from: core, to: signatures, by: cores) { _ = try key.signRS256(message) }
        }
      }
      try await group.waitForAll()
    }
    return Double(signatures) / (Measure.milliseconds(ContinuousClock.now - started) / 1000)
  }

  /// How the clients reach the server.
  enum Client {
    /// ``LoadConnection``s on threads of their own: what the server alone can do.
    case sockets
    /// `FirebaseBackend` over `URLSession`, one connection per client: what an app's test
    /// suite in the same process sees.
    case firebaseBackend
  }

  /// The sign-up, sign-in, refresh mix over HTTP to an in-memory backend hashing at `scrypt`.
  private static func served(scrypt: ScryptParameters, clients: Int, rounds: Int, client: Client) async throws
    -> Figures
  {
    let embedded = try EmbeddedBackend(directory: nil, configuration: .init(scrypt: scrypt))
    let server = try FirebaseEmulatorServer(backend: embedded, port: 0)
    defer { server.stop() }
    // The first token makes the signing key (an RSA key generation, 0.1-1 s): make it before
    // the run is timed, or it lands in the run's p99 alone.
    _ = try await embedded.signUp(SignUpRequest())
    switch client {
    case .sockets:
      guard let port = server.host.split(separator: ":").last.flatMap({ UInt16($0) }) else {
        throw BenchError("no port in \(server.host)")
      }
      return try await measureOverSockets(port: port, clients: clients, rounds: rounds)
    case .firebaseBackend:
      // One connection per client: URLSession's default of 6 per host would queue the clients
      // inside the client.
      let configuration = URLSessionConfiguration.ephemeral
      configuration.httpMaximumConnectionsPerHost = clients
      let firebase = try FirebaseBackend.emulator(
        host: server.host, projectID: embedded.configuration.projectID,
        transport: URLSessionTransport(session: URLSession(configuration: configuration)))
      return try await measure(firebase, clients: clients, rounds: rounds, tag: "http")
    }
  }

  /// The mix from `clients` threads, each on one keep-alive connection.
  private static func measureOverSockets(port: UInt16, clients: Int, rounds: Int) async throws -> Figures {
    let samples = Samples()
    let group = DispatchGroup()
    let started = ContinuousClock.now
    for client in 0..<clients {
      group.enter()
      let thread = Thread {
        defer { group.leave() }
        do {
          samples.add(try socketClient(port: port, client: client, rounds: rounds))
        } catch {
          samples.fail("\(error)")
        }
      }
      thread.start()
    }
    await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
    let seconds = Measure.milliseconds(ContinuousClock.now - started) / 1000
    let (latencies, failure) = samples.result
    if let failure { throw BenchError("a client failed: \(failure)") }
    return Figures(
      perSecond: Double(latencies.count) / max(seconds, 1e-9), p50: Measure.percentile(latencies, 0.5),
      p99: Measure.percentile(latencies, 0.99))
  }

  /// One client's rounds of sign-up, sign-in and refresh; every reply must be a 200.
  private static func socketClient(port: UInt16, client: Int, rounds: Int) throws -> [Double] {
    let connection = try LoadConnection(port: port)
    var latencies: [Double] = []
    // The bodies are written and the one field read by hand, as a load generator does: the
    // client's JSON coding would otherwise take the server's cores.
    func call(_ target: String, _ body: String) throws -> String {
      let started = ContinuousClock.now
      let reply = try connection.post(target, json: Array(body.utf8))
      latencies.append(Measure.milliseconds(ContinuousClock.now - started))
      let text = String(decoding: reply.body, as: UTF8.self)
      guard reply.status == 200 else { throw BenchError("\(target) answered \(reply.status): \(text)") }
      return text
    }
    let accounts = "/identitytoolkit.googleapis.com/v1/accounts:"
    for round in 0..<rounds {
      let credentials =
        #"{"email":"load-\#(client)-\#(round)@example.com","password":"correct horse","returnSecureToken":true}"#
      _ = try call(accounts + "signUp?key=k", credentials)
      let signedIn = try call(accounts + "signInWithPassword?key=k", credentials)
      guard let start = signedIn.range(of: #""refreshToken":""#)?.upperBound,
        let end = signedIn[start...].firstIndex(of: "\"")
      else { throw BenchError("no refresh token in the sign-in reply") }
      _ = try call(
        "/securetoken.googleapis.com/v1/token?key=k",
        #"{"grant_type":"refresh_token","refresh_token":"\#(signedIn[start..<end])"}"#)
    }
    return latencies
  }

  /// The clients' latencies, or the first failure.
  private final class Samples: Sendable {
    private let latencies = Mutex<[Double]>([])
    private let failure = Mutex<String?>(nil)

    func add(_ more: [Double]) { latencies.withLock { $0 += more } }
    func fail(_ reason: String) { failure.withLock { $0 = $0 ?? reason } }
    var result: ([Double], String?) { (latencies.withLock { $0 }, failure.withLock { $0 }) }
  }

  /// RSS of a `signin serve --in-memory` process after `requests` refreshes from 8 clients,
  /// against its RSS after the first one.
  private static func servedMemory(requests: Int) async throws -> BenchResult {
    let name = "7 signin serve memory (its own process)"
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let signin = here.appendingPathComponent("signin")
    guard FileManager.default.isExecutableFile(atPath: signin.path) else {
      return BenchResult(
        name: name, subject: "RSS", value: 0, baselineName: "RSS before", baseline: 0, unit: "MB", target: nil,
        met: nil, note: "signin is not built beside signin-bench; run `swift build -c release` first")
    }
    let process = Process()
    process.executableURL = signin
    process.arguments = ["serve", "--in-memory", "--port", "0"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    var first = ""
    while !first.contains("\n") {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { break }
      first += String(decoding: chunk, as: UTF8.self)
    }
    guard let line = first.split(separator: "\n").first, line.hasPrefix("FIREBASE_AUTH_EMULATOR_HOST=") else {
      throw BenchError("signin serve did not start: \(first)")
    }
    let remote = try FirebaseBackend.emulator(
      host: String(line.dropFirst("FIREBASE_AUTH_EMULATOR_HOST=".count)), projectID: "signinkit-local")
    let session = try await remote.signUp(SignUpRequest())
    _ = try await remote.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
    let pid = String(process.processIdentifier)
    let before = Measure.residentMegabytes(of: pid)
    let clients = 8
    try await withThrowingTaskGroup(of: Void.self) { group in
      for client in 0..<clients {
        group.addTask {
          for _ in stride(from: client, to: requests, by: clients) {
            _ = try await remote.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
          }
        }
      }
      try await group.waitForAll()
    }
    let after = Measure.residentMegabytes(of: pid)
    return BenchResult(
      name: name, subject: "RSS after \(requests) refreshes from \(clients) clients", value: after,
      baselineName: "RSS after the first", baseline: before, unit: "MB", target: nil, met: nil, note: nil)
  }

  private struct Figures {
    var perSecond: Double
    var p50: Double
    var p99: Double
  }

  private static func measure(_ backend: any AuthBackend, clients: Int, rounds: Int, tag: String) async throws
    -> Figures
  {
    let started = ContinuousClock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
      for client in 0..<clients {
        group.addTask {
          var samples: [Double] = []
          for round in 0..<rounds {
            let email = "\(tag)-\(client)-\(round)@example.com"
            samples.append(
              try await Measure.time {
                _ = try await backend.signUp(SignUpRequest(email: email, password: "correct horse"))
              })
            var signedIn: SignInResponse?
            samples.append(
              try await Measure.time {
                signedIn = try await backend.signInWithPassword(
                  PasswordSignInRequest(email: email, password: "correct horse"))
              })
            let refreshToken = signedIn!.tokens.refreshToken
            samples.append(
              try await Measure.time {
                _ = try await backend.refresh(RefreshTokenRequest(refreshToken: refreshToken))
              })
          }
          return samples
        }
      }
      var all: [Double] = []
      for try await samples in group { all += samples }
      return all
    }
    let seconds = Measure.milliseconds(ContinuousClock.now - started) / 1000
    return Figures(
      perSecond: Double(latencies.count) / max(seconds, 1e-9), p50: Measure.percentile(latencies, 0.5),
      p99: Measure.percentile(latencies, 0.99))
  }
}
