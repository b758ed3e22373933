import Foundation
import Testing

@testable import SignInFoundation

@Suite struct ProcessEnvironmentTests {
  @Test func readsTheSameVariablesAsProcessInfo() {
    #expect(ProcessEnvironment.current() == ProcessInfo.processInfo.environment)
  }
}
