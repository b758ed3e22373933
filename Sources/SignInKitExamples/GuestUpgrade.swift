import SignInKit

// snippet.begin guest-upgrade
/// Where a guest's work lives, by uid: a cart, drafts, progress.
public protocol GuestWork: Sendable {
  func move(from guestUID: String, to uid: String) async throws
}

/// A guest (signed in anonymously) signs in with a provider later. A new account keeps the
/// guest's uid, so the work stays where it is; when the provider's account exists already,
/// SignInKit signs in to it, the work moves there, and the guest account is deleted. The
/// blog-post version called `link`, caught `credentialAlreadyInUse`, dug the email out of the
/// message and lost the cart.
public func signInKeepingGuestWork(
  _ auth: Auth, with provider: some SignInProvider, work: some GuestWork
) async throws -> User {
  let outcome = try await auth.upgradeAnonymousUser(with: provider) { guest, existing in
    try await work.move(from: guest.uid, to: existing.uid)
  }
  switch outcome {
  case .linked(let result): return result.user
  case .signedInToExistingAccount(let result, _): return result.user
  }
}
// snippet.end
