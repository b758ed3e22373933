/// Every word the sign-in and account flows, and `SignInKitUI`'s screens, show a person: one key
/// per sentence or label of the string catalog (`Localizable.xcstrings`), which has each in
/// English, Spanish, French, German, Japanese, Korean, Brazilian Portuguese and Simplified
/// Chinese. ``FlowStrings`` reads them in the person's language. A key's English words are in
/// its documentation; `%@` and `%lld` stand for the values it is given.
///
/// - Concurrency: `Sendable` value.
public enum FlowText: String, CaseIterable, Sendable {
  // MARK: What a failed call says
  /// "The email or password is wrong. Try again, or reset your password."
  case wrongPassword
  /// "No account uses this email. Check it, or create an account."
  case userNotFound
  /// "An account already uses this email. Sign in instead, or reset its password."
  case emailAlreadyInUse
  /// "That password is too easy to guess. Choose a longer one."
  case weakPassword
  /// "That email address is not valid. Check it and try again."
  case invalidEmail
  /// "This account is disabled. Contact the app's support."
  case userDisabled
  /// "Too many attempts. Wait a little, then try again."
  case tooManyRequests
  /// "The server can't be reached. Check your connection and try again."
  case network
  /// "That code is wrong. Check it and try again."
  case invalidVerificationCode
  /// "That code has expired. Go back and ask for a new one."
  case verificationExpired
  /// "That phone number is not valid. Check the country code and the number."
  case invalidPhoneNumber
  /// "Too many codes were sent. Try again later, or sign in another way."
  case quotaExceeded
  /// "This way of signing in is turned off for this app. Choose another."
  case operationNotAllowed
  /// "For your security, sign in again first."
  case requiresRecentLogin
  /// "An account already uses this email with another sign-in method. Sign in that way first."
  case accountExistsWithDifferentCredential
  /// "That sign-in already belongs to another account."
  case credentialAlreadyInUse
  /// "Something went wrong. Try again."
  case somethingWentWrong

  // MARK: What a field check says
  /// "Enter your email address."
  case enterEmail
  /// "%@ is not an email address; check it and try again."
  case notAnEmail
  /// "Enter your password."
  case enterPassword
  /// "Your password needs %@."
  case passwordNeeds
  /// ", "
  case listSeparator
  /// "at least %lld characters"
  case requirementMinimumLength
  /// "at most %lld characters"
  case requirementMaximumLength
  /// "a lowercase letter"
  case requirementLowercase
  /// "an uppercase letter"
  case requirementUppercase
  /// "a digit"
  case requirementDigit
  /// "a symbol such as ! or #"
  case requirementSymbol
  /// "Enter the 6-digit code."
  case enterCode
  /// "Enter your phone number."
  case enterPhoneNumber
  /// "%@ is not a phone number; use digits only."
  case phoneDigitsOnly
  /// "Choose your country, or start the number with + and its country code."
  case phoneNeedsCountry
  /// "%@ is not a full phone number; check the country code and the number."
  case phoneIncomplete

  // MARK: What the flows say
  /// "This app has no passkey sign-in set up; choose another way."
  case noPasskeySetUp
  /// "This app has no %@ sign-in set up; choose another way."
  case noProviderSetUp
  /// "This app has no link to come back to; sign in another way."
  case noEmailLinkSettings
  /// "Choose how to confirm it's you."
  case chooseSecondFactor
  /// "This is the only way to sign in to the account; add another before removing it."
  case onlyWayIn
  /// "Your password was changed."
  case passwordChanged
  /// "We sent a link to %@; your email changes when you open it."
  case emailChangeSent
  /// "Authenticator app"
  case authenticatorAppFactor
  /// "Phone"
  case phoneFactor

  // MARK: The screens' titles, fields and buttons
  /// "Sign in"
  case signInTitle
  /// "Create account"
  case signUpTitle
  /// "Reset password"
  case forgotPasswordTitle
  /// "Email"
  case emailField
  /// "Password"
  case passwordField
  /// "Sign in"
  case signInButton
  /// "Create account"
  case signUpButton
  /// "Forgot password?"
  case forgotPasswordButton
  /// "No account? Create one"
  case switchToSignUp
  /// "Have an account? Sign in"
  case switchToSignIn
  /// "Send reset link"
  case sendResetLink
  /// "We sent a password reset link to %@."
  case resetLinkSent
  /// "Email me a sign-in link"
  case emailLinkButton
  /// "We sent a sign-in link to %@. Open it on this device."
  case emailLinkSent
  /// "Phone number"
  case phoneField
  /// "Country"
  case countryField
  /// "Send code"
  case sendCodeButton
  /// "Code"
  case codeField
  /// "Enter the code we texted to %@."
  case codeSentTo
  /// "Verify"
  case verifyButton
  /// "Continue with %@"
  case continueWithProvider
  /// "Sign in with Google"
  case signInWithGoogle
  /// "Sign in with a passkey"
  case signInWithPasskey
  /// "Confirm it's you"
  case secondFactorTitle
  /// "Text a code to %@"
  case textTo
  /// "Enter the code your authenticator app shows."
  case authenticatorCode
  /// "You already have an account"
  case conflictTitle
  /// "%1$@ already has an account. Sign in to it once to add %2$@ to it."
  case conflictBody
  /// "It signs in with: %@."
  case conflictMethods
  /// "Cancel"
  case cancelButton
  /// "Back"
  case backButton
  /// "Signed in as %@"
  case signedInAs
  /// "Please wait…"
  case pleaseWait
  /// "Account"
  case accountTitle
  /// "Name"
  case nameField
  /// "Save"
  case saveButton
  /// "Ways to sign in"
  case waysToSignIn
  /// "Remove"
  case removeButton
  /// "Passkeys"
  case passkeysTitle
  /// "Add a passkey"
  case addPasskeyButton
  /// "Two-step verification"
  case secondFactorsTitle
  /// "Add an authenticator app"
  case addAuthenticatorButton
  /// "Add a phone number"
  case addPhoneFactorButton
  /// "Scan this code with your authenticator app, then enter the code it shows."
  case scanCode
  /// "Change email"
  case changeEmailButton
  /// "New email"
  case newEmailField
  /// "Change password"
  case changePasswordButton
  /// "New password"
  case newPasswordField
  /// "Sign out"
  case signOutButton
  /// "Delete account"
  case deleteAccountButton
  /// "Delete your account? This cannot be undone."
  case deleteAccountConfirm
  /// "Sign in again"
  case reauthenticateTitle
  /// "Sign in again to change your email."
  case reauthenticateForEmail
  /// "Sign in again to change your password."
  case reauthenticateForPassword
  /// "Sign in again to delete your account."
  case reauthenticateForDeletion
  /// "Choose how to sign in"
  case chooseMethodTitle
  /// "%@ is not the web address of a picture; use one that starts with https://."
  case notAPictureAddress
  /// "Picture address"
  case photoField
  /// "Add"
  case linkButton
  /// "Email and password"
  case emailPasswordMethod
  /// "Phone number"
  case phoneMethod
}
