import Foundation
import SignInKit
import SignInKitEmbedded

/// The in-process transport's cost: `EmbeddedBackend.lookup`, which an app calls (the client's
/// mapping to the wire layer's body, handed to the identity service in this process, and the
/// reply mapped back), against the account family's own lookup on the backend's actor, which is
/// what the embedded backend did before it had a client. The same backend and account in the same
/// run; the two alternate in rounds, so a slower stretch of the machine lands on both alike; each
/// figure is the median of every call of its kind.
enum InProcessServiceBench {
  static func run(rounds: Int, callsPerRound: Int) async throws -> [BenchResult] {
    let backend = try EmbeddedBackend(
      directory: nil, configuration: EmbeddedBackend.Configuration(scrypt: AuthBench.fastScrypt))
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let idToken = session.tokens.idToken

    var direct: [Double] = []
    var throughService: [Double] = []
    for round in 0..<rounds {
      for first in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        for _ in 0..<callsPerRound {
          if first {
            direct.append(
              try await Measure.time {
                _ = try await backend.run { try $0.accounts.lookup(LookupRequest(idToken: idToken)) }
              })
          } else {
            throughService.append(
              try await Measure.time {
                let account = try await backend.lookup(LookupRequest(idToken: idToken))
                guard account.localID == session.localID else { throw BenchError("lookup found no one") }
              })
          }
        }
      }
    }
    await backend.close()
    let value = Measure.percentile(throughService, 0.5)
    let baseline = Measure.percentile(direct, 0.5)
    return [
      BenchResult(
        name: "9 in-process transport: accounts:lookup (median of \(rounds * callsPerRound))",
        subject: "EmbeddedBackend.lookup, through the service", value: value,
        baselineName: "the account family's lookup on the actor",
        baseline: baseline, unit: "ms", target: "≤ 1.2x", met: value <= baseline * 1.2,
        note: "the same backend and account; the client maps the call, the service reads the tenant, checks the "
          + "caller and shapes the reply")
    ]
  }
}
