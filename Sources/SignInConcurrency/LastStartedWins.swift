/// "Last started wins", once for every owner that needs it: each operation that starts takes a
/// ticket, and only the newest ticket may still change what the owner holds. An operation that
/// finishes with an older ticket drops its result.
///
/// `Auth`'s session machine orders sign-ins and user sign-outs with it; an identity provider's
/// own session (sign-in, sign-out, refresh at the issuer) with another.
///
/// - Concurrency: `Sendable` value, owned and mutated by one actor.
package struct LastStartedWins: Sendable {
  /// What one start was given; compare it with ``isNewest(_:)`` when the operation finishes.
  package struct Ticket: Hashable, Sendable {
    fileprivate let number: UInt64
  }

  private var started: UInt64 = 0

  package init() {}

  /// Starts an operation: its ticket is the newest from now on.
  package mutating func start() -> Ticket {
    started &+= 1
    return Ticket(number: started)
  }

  /// The ticket of the last operation started (before any: a ticket no start returns).
  package var newest: Ticket { Ticket(number: started) }

  /// Whether no operation started after the one `ticket` was given to.
  package func isNewest(_ ticket: Ticket) -> Bool { ticket.number == started }
}
