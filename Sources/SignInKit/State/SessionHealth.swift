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
  /// The last refresh worked but its tokens could not be stored (a read-only folder, a full
  /// disk): the user is still signed in with the stored session, nothing is offline, and a retry
  /// is scheduled. ``AuthStateStore/errorMessage`` says what to fix.
  case unsaved

  public var description: String {
    switch self {
    case .fresh: "fresh"
    case .refreshing: "refreshing"
    case .stale: "offline, will retry"
    case .unsaved: "new tokens could not be saved, will retry"
    }
  }
}
