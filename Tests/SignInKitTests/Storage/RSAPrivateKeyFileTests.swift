import Foundation
import SignInConcurrency
import SignInCrypto
import SignInTestSupport
import Testing

@testable import SignInKit

@Suite struct RSAPrivateKeyFileTests {
  @Test func processesStartingAtOnceShareOneKeyAndNoneIsOverwritten() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("key.pem")
    let keys = Locked<[RSAPrivateKey]>([])
    DispatchQueue.concurrentPerform(iterations: 6) { _ in
      if let key = try? RSAPrivateKey.loadOrCreate(at: url) { keys.withLock { $0.append(key) } }
    }
    let loaded = keys.withLock { $0 }
    #expect(loaded.count == 6)
    #expect(Set(loaded.map(\.der)).count == 1)
    #expect(try RSAPrivateKey.loadOrCreate(at: url) == loaded[0])
    #expect(try directory.files() == ["key.pem"])
  }
}
