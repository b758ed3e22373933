import Foundation
import SignInKit
import SignInKitEmbedded

/// `signin serve`'s HTTP layer: `clients` concurrent clients each doing a sign-up, a sign-in and
/// a refresh through `FirebaseBackend` over loopback to a `FirebaseEmulatorServer`, against the
/// same calls made on the embedded backend in process. The ratio is what HTTP costs. Then RSS
/// after `requests` more requests (refreshes), against RSS before them.
enum EmulatorBench {
  static func run(clients: Int, rounds: Int, requests: Int) async throws -> [BenchResult] {
    let embedded = try EmbeddedBackend(directory: nil, configuration: .init(scrypt: AuthBench.fastScrypt))
    let server = try FirebaseEmulatorServer(backend: embedded, port: 0)
    defer { server.stop() }
    let firebase = try FirebaseBackend.emulator(host: server.host, projectID: embedded.configuration.projectID)

    let served = try await measure(firebase, clients: clients, rounds: rounds, tag: "http")
    let direct = try await measure(embedded, clients: clients, rounds: rounds, tag: "direct")

    // Memory: many requests on one session.
    let session = try await firebase.signUp(SignUpRequest())
    var refreshToken = session.tokens.refreshToken
    let before = Measure.residentMegabytes()
    for _ in 0..<requests {
      refreshToken = try await firebase.refresh(RefreshTokenRequest(refreshToken: refreshToken)).tokens.refreshToken
    }
    let after = Measure.residentMegabytes()

    let name = "7 signin serve: \(clients) clients × \(rounds) rounds of sign-up, sign-in, refresh"
    return [
      BenchResult(
        name: name, subject: "over HTTP", value: served.perSecond, baselineName: "in process",
        baseline: direct.perSecond, unit: "requests/s", target: nil, met: nil,
        note: String(
          format: "p50 %.2f ms vs %.2f ms, p99 %.2f ms vs %.2f ms", served.p50, direct.p50, served.p99,
          direct.p99)),
      BenchResult(
        name: "7 signin serve memory", subject: "RSS after \(requests) refreshes over HTTP", value: after,
        baselineName: "RSS before", baseline: before, unit: "MB", target: nil, met: nil, note: nil),
    ]
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
