import SignInKit

/// Signs in, watching the state change live, and returns a fresh ID token.
func quickStart(backend: some AuthBackend, store: some SessionStore) async throws -> String {
  let auth = Auth(backend: backend, store: store)
  defer { Task { await auth.shutdown() } }

  // Any number of subscribers; each gets the current state first, then every change.
  let watcher = Task {
    for await state in auth.states { print("state:", state) }
  }
  defer { watcher.cancel() }

  // At launch: back to the previous session, if any (with a deadline; offline stays signed in).
  if try await auth.restorePreviousSignIn() == nil {
    do {
      _ = try await auth.signUp(email: "ada@example.com", password: "correct horse battery")
    } catch let error as AuthError where error.code == .emailAlreadyInUse {
      _ = try await auth.signIn(email: "ada@example.com", password: "correct horse battery")
    }
  }
  // Refreshed once however many callers ask, 5 minutes before it expires.
  return try await auth.idToken()
}
