/// What an update does to one optional field of ``AuthStateStore``.
///
/// - Concurrency: `Sendable` value.
enum FieldChange<Value: Sendable>: Sendable {
  /// Leaves the field as it is.
  case keep
  case set(Value)
  /// Sets the field to `nil` (for ``AuthStateStore/idTokens``: announces there is no token).
  case clear
}

/// One change ``Auth`` publishes to ``AuthStateStore``: any of its fields may be left out.
///
/// - Concurrency: `Sendable` value.
struct StoreUpdate: Sendable {
  var state: AuthState?
  var event: AuthEvent?
  var errorMessage: FieldChange<String> = .keep
  var isBusy: Bool?
  var idToken: FieldChange<String> = .keep
}

extension StoreUpdate {
  /// Whether applying it would change nothing.
  var isEmpty: Bool {
    guard state == nil, event == nil, isBusy == nil else { return false }
    if case .keep = errorMessage, case .keep = idToken { return true }
    return false
  }
}
