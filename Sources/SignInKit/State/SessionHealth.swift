/// How current a signed-in session's tokens are.
///
/// - Concurrency: `Sendable` value.
public enum SessionHealth: Sendable, Equatable, CustomStringConvertible {
  /// The ID token is valid and was issued by the backend.
  case fresh
  /// A token refresh is in flight.
  case refreshing
  /// The last refresh failed transiently (offline, server busy): the user is still signed in and a
  /// retry is scheduled with backoff.
  case stale

  public var description: String {
    switch self {
    case .fresh: "fresh"
    case .refreshing: "refreshing"
    case .stale: "offline, will retry"
    }
  }
}
