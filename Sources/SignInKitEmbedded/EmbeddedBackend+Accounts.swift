import Foundation
import SignInKit
import SignInWire

extension EmbeddedBackend {

  // MARK: - Rules

}

extension EmbeddedDatabase.Account {
  /// Removes the email and password provider as the Firebase emulator's `deleteProvider:
  /// ["password"]` does: the password, and with it the email, its verification and its
  /// email-link sign-in.
  mutating func removePasswordProvider(at date: Date) {
    setPassword(nil, at: date)
    email = nil
    emailVerified = false
    emailLinkSignIn = nil
  }

  package var info: AccountInfo {
    AccountInfo(
      localID: uid, email: email, emailVerified: emailVerified, displayName: displayName,
      photoURL: photoURL, disabled: disabled,
      providers: AccountInfo.providers(
        federated: federated, passwordEmail: password != nil || emailLinkSignIn == true ? email : nil)
        + (phoneNumber.map { [ProviderInfo(providerID: .phone, rawID: $0)] } ?? []),
      createdAt: createdAt, lastLoginAt: lastLoginAt,
      secondFactors: (secondFactors ?? []).map {
        MultiFactorInfo(
          enrollmentID: $0.enrollmentID, kind: $0.phoneNumber == nil ? .totp : .phone, displayName: $0.displayName,
          enrolledAt: $0.enrolledAt, phoneNumber: $0.phoneNumber.map(MultiFactorInfo.masked))
      }, phoneNumber: phoneNumber,
      passkeys: (passkeys ?? []).map {
        PasskeyInfo(name: $0.name, credentialID: $0.credentialID, enrolledAt: $0.enrolledAt)
      })
  }
}

extension EmbeddedBackend {
  /// The emails of the accounts here, sorted; with `provider`, only the emails those accounts
  /// use at that IdP (what an account chooser at the IdP would list).
  public func emails(signedInWith provider: ProviderID? = nil) -> [String] {
    // A database that cannot be read lists nothing; the next call that needs it says why.
    (try? store.emails(provider: provider)) ?? []
  }
}
