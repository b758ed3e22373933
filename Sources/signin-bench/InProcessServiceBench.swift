import Foundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The in-process transport's cost: an account lookup handed to the identity service as the
/// wire layer's body (`accounts:lookup`, what a client over the in-process transport sends),
/// against the embedded backend's direct `lookup`, on the same backend and account in the same
/// run. The two alternate in rounds, so a slower stretch of the machine lands on both alike;
/// each figure is the median of every call of its kind.
enum InProcessServiceBench {
  static func run(rounds: Int, callsPerRound: Int) async throws -> [BenchResult] {
    let backend = try EmbeddedBackend(
      directory: nil, configuration: EmbeddedBackend.Configuration(scrypt: AuthBench.fastScrypt))
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let idToken = session.tokens.idToken
    let service = IdentityToolkitService(serving: backend)
    let call = ServiceCall(
      isAdmin: false, namesAnAPIKey: true, path: FirebaseAPI.lookup.paths[0],
      baseURL: URL(string: "http://127.0.0.1:9099")!)
    var body = LookupBody()
    body.idToken = idToken

    var direct: [Double] = []
    var throughService: [Double] = []
    for round in 0..<rounds {
      for first in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        for _ in 0..<callsPerRound {
          if first {
            direct.append(try await Measure.time { _ = try await backend.lookup(LookupRequest(idToken: idToken)) })
          } else {
            throughService.append(
              try await Measure.time {
                let reply = try await service.handle(FirebaseAPI.lookup, body, call)
                guard reply.users?.first?.localId == session.localID else { throw BenchError("lookup found no one") }
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
        subject: "through the identity service", value: value, baselineName: "the backend's direct lookup",
        baseline: baseline, unit: "ms", target: "≤ 1.2x", met: value <= baseline * 1.2,
        note: "the same backend and account; the service reads the tenant, checks the caller and shapes the reply")
    ]
  }
}
