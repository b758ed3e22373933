import SignInKit

// snippet.begin sign-in-outcome
/// What a sign-in screen does next: one value from one `await`, where a delegate had
/// `didSignIn` and `didFailWithError` callbacks and a flag to tell a cancel from a failure.
public enum SignInOutcome: Equatable, Sendable {
  case signedIn(User)
  /// The account has a second factor: ask for the code, then call `resolveSignIn`.
  case needsCode(SecondFactorChallenge)
  /// Show this message next to the form.
  case failed(String)
  /// Nothing to show: the person stopped, or a newer sign-in replaced this one.
  case stopped
}

public func signIn(_ auth: Auth, email: String, password: String) async -> SignInOutcome {
  do {
    return .signedIn(try await auth.signIn(email: email, password: password).user)
  } catch let error as AuthError where error.code == .secondFactorRequired {
    return error.secondFactor.map(SignInOutcome.needsCode) ?? .failed(error.message)
  } catch let error as AuthError where error.code.isCancellation {
    return .stopped
  } catch let error as AuthError {
    // The message already says what to do ("The password is wrong.", "Sign up first.").
    return .failed(error.message)
  } catch {
    return .failed("Something went wrong; try again.")
  }
}
// snippet.end
