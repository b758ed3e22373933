/// What an update does to one optional field of ``AuthStateStore``.
///
/// - Concurrency: `Sendable` value.
package enum FieldChange<Value: Sendable>: Sendable {
  /// Leaves the field as it is.
  case keep
  case set(Value)
  /// Sets the field to `nil` (for ``AuthStateStore/idTokens``: announces there is no token).
  case clear
}

/// One change ``Auth`` publishes to ``AuthStateStore``: any of its fields may be left out.
///
/// - Concurrency: `Sendable` value.
package struct StoreUpdate: Sendable {
  package var state: AuthState?
  package var event: AuthEvent?
  package var errorMessage: FieldChange<String> = .keep
  package var isBusy: Bool?
  package var idToken: FieldChange<String> = .keep

  package init(
    state: AuthState? = nil, event: AuthEvent? = nil, errorMessage: FieldChange<String> = .keep,
    isBusy: Bool? = nil, idToken: FieldChange<String> = .keep
  ) {
    self.state = state
    self.event = event
    self.errorMessage = errorMessage
    self.isBusy = isBusy
    self.idToken = idToken
  }
}

extension StoreUpdate {
  /// Whether applying it would change nothing.
  var isEmpty: Bool {
    guard state == nil, event == nil, isBusy == nil else { return false }
    if case .keep = errorMessage, case .keep = idToken { return true }
    return false
  }
}
