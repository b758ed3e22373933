import SignInKit

/// Signs in, watching the state change live, and returns a fresh ID token.
func quickStart(backend: some AuthBackend, store: some SessionStore) async throws -> String {
  let auth = Auth(backend: backend, store: store)

  // Subscribed here, before anything happens: the current state first, then every change (a
  // watcher that falls behind skips to the newest). Any number of subscribers may watch.
  let states = auth.states
  let watcher = Task {
    for await state in states { print("state:", state) }
  }

  let token: Result<String, any Error>
  do {
    // At launch: back to the previous session, if any (with a deadline; offline stays signed in).
    if try await auth.restorePreviousSignIn() == nil {
      do {
        _ = try await auth.signUp(email: "ada@example.com", password: "correct horse battery")
      } catch let error as AuthError where error.code == .emailAlreadyInUse {
        _ = try await auth.signIn(email: "ada@example.com", password: "correct horse battery")
      }
    }
    // Refreshed once however many callers ask, 5 minutes before it expires.
    token = .success(try await auth.idToken())
  } catch {
    token = .failure(error)
  }
  // Shutting down ends every stream, so the watcher's loop ends; waiting for it means
  // everything it was given is printed before this returns.
  await auth.shutdown()
  await watcher.value
  return try token.get()
}
