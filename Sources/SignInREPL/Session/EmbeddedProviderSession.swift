import Foundation
import SignInKit
import SignInKitEmbedded

/// A Google-style sign-in at the embedded IdP for a chosen email.
actor EmbeddedProviderSession: SignInProvider {
  let idp: EmbeddedIdentityProvider
  let email: String
  let nonce: String

  init(idp: EmbeddedIdentityProvider, email: String) {
    self.idp = idp
    self.email = email
    self.nonce = UUID().uuidString
  }

  nonisolated var id: ProviderID { idp.providerID }

  func credential() async throws -> ProviderCredential {
    ProviderCredential(providerID: idp.providerID, idToken: try idp.idToken(email: email, nonce: nonce))
  }

  func signOut() async {}
}
