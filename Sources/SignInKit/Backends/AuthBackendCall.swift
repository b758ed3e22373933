/// Every ``AuthBackend`` call, by name: what an ``AuthBackendDecorator`` is told, and what
/// `ScriptedBackend` records.
///
/// - Concurrency: `Sendable` value.
public enum AuthBackendCall: String, Sendable, Hashable, CaseIterable {
  case signUp, signInWithPassword, signInWithIdp, signInWithCustomToken, signInWithEmailLink, refresh, lookup,
    update, delete, sendOobCode, resetPassword, secondFactor, revokeRefreshToken, revokeToken, sendPhoneCode,
    signInWithPhoneNumber, passkey, passwordPolicy, signInMethods
}
