import Foundation
import SignInKit

/// One command of the `signin` REPL, parsed and checked, ready to dispatch.
///
/// - Concurrency: `Sendable` value.
public enum REPLCommand: Sendable, Equatable {
  case signUp(email: String)
  case signIn(email: String)
  case anonymous
  case google
  case apple
  case linkEmail(String)
  case linkProvider(ProviderID)
  case unlink(ProviderID)
  case restore
  case whoami
  case token(force: Bool, claims: Bool, reveal: Bool)
  case refresh
  case reload
  case profile(name: String?, photo: URL?)
  case changeEmail(String)
  case changePassword
  case verifyEmail
  case applyCode(String)
  case resetPassword(email: String)
  case confirmReset(code: String)
  case mailbox(email: String?)
  case deleteAccount
  case signOut
  case state
  case watch(Bool)
  case quit
  case help(String?)
}
