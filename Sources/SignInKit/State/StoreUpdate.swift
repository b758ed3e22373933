/// One change ``Auth`` publishes to ``AuthStateStore``: any of its fields may be left out.
struct StoreUpdate: Sendable {
  var state: AuthState?
  var event: AuthEvent?
  /// `.some(nil)` clears the message.
  var errorMessage: String??
  var isBusy: Bool?
  /// `.some(nil)` announces that there is no token any more.
  var idToken: String??
}
