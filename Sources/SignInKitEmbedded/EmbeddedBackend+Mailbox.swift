import Foundation
import SignInCrypto
import SignInKit
import SignInWire

extension EmbeddedBackend {

  /// The domains links may lead to: the ones every project has (`localhost`, the loopback
  /// addresses, `PROJECT.firebaseapp.com` and `PROJECT.web.app`), then the configured ones.
  public nonisolated var authorizedDomains: [String] {
    configuration.linkDomains
  }

  /// The messages sent to `email` whose codes can still be used, oldest first (the newest few:
  /// ``Configuration-swift.struct/limits``); every such message when `email` is `nil`.
  public func mailbox(for email: String? = nil) -> [MailboxMessage] {
    // Expired codes take their messages with them; a database that cannot be read shows none
    // (the next call that needs it says why).
    (try? store.actionCodes.mail(to: email?.lowercased(), liveAt: now())) ?? []
  }

}
