import Foundation
import Observation
import SignInKit

// snippet.begin passkey-settings
/// A settings screen's passkeys: the ones enrolled on the account, one more from this device,
/// and removal. The authenticator is the platform's in the app and a development one in tests.
///
/// - Concurrency: `@MainActor`, as the view that reads it.
@MainActor @Observable public final class PasskeySettings {
  public private(set) var passkeys: [PasskeyInfo] = []
  public private(set) var message: String?
  @ObservationIgnored private let auth: Auth
  @ObservationIgnored private let authenticator: any PasskeyAuthenticator

  public init(auth: Auth, authenticator: any PasskeyAuthenticator) {
    self.auth = auth
    self.authenticator = authenticator
    passkeys = auth.currentUser?.passkeys ?? []
  }

  public func addPasskey(named name: String) async {
    do {
      let user = try await auth.enrollPasskey(named: name, using: authenticator)
      passkeys = user.passkeys
      message = "Passkey added. Next time, sign in with it: no password needed."
    } catch let error as AuthError where error.code == .userCancelled {
      message = nil  // The person closed the sheet: nothing to say.
    } catch let error as AuthError {
      message = error.message
    } catch {
      message = "Something went wrong; try again."
    }
  }

  public func remove(_ passkey: PasskeyInfo) async {
    do {
      let user = try await auth.removePasskey(credentialID: passkey.credentialID)
      passkeys = user.passkeys
      message = "Removed \(passkey.name). Delete it from the device's passwords too."
    } catch let error as AuthError {
      message = error.message
    } catch {
      message = "Something went wrong; try again."
    }
  }
}
// snippet.end

#if canImport(AuthenticationServices) && os(iOS)
  import AuthenticationServices
  import SwiftUI

  // snippet.begin passkey-sign-in-view
  /// A sign-in screen that offers the device's passkeys in the username field's QuickType bar as
  /// soon as it appears (AutoFill), and on a button in a sheet.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  public struct PasskeySignInView: View {
    let auth: Auth
    @State private var email = ""
    @State private var message: String?

    public init(auth: Auth) { self.auth = auth }

    private var passkeys: PlatformPasskeyAuthenticator {
      PlatformPasskeyAuthenticator {
        UIApplication.shared.connectedScenes.compactMap { ($0 as? UIWindowScene)?.keyWindow }.first
          ?? ASPresentationAnchor()
      }
    }

    public var body: some View {
      Form {
        TextField("Email", text: $email).textContentType(.username)
        Button("Sign in with a passkey") { Task { await signIn(.modal) } }
        if let message { Text(message) }
      }
      // AutoFill waits for a pick in the QuickType bar; leaving the screen cancels it.
      .task { await signIn(.autoFill) }
    }

    private func signIn(_ presentation: PasskeyAssertionRequest.Presentation) async {
      do {
        try await auth.signInWithPasskey(using: passkeys, presentation: presentation)
      } catch let error as AuthError where error.code.isCancellation {
        // Closed, or the screen went away.
      } catch {
        message = (error as? AuthError)?.message ?? "Something went wrong; try again."
      }
    }
  }
// snippet.end
#endif
