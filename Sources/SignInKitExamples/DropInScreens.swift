#if canImport(SwiftUI) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
  import Foundation
  import SignInKit
  import SignInKitFlows
  import SignInKitUI
  import SwiftUI

  // snippet.begin drop-in-screens
  /// An app's whole sign-in from SignInKitUI: the root follows `Auth`'s state stream (through
  /// `AuthViewModel`), restores the previous sign-in at launch, shows `SignInView` while signed
  /// out and `AccountView` once signed in.
  public struct DropInRoot: View {
    let auth: Auth
    let providers: [any SignInProvider]
    let methods: [SignInFlow.Method]
    @State private var model: AuthViewModel

    public init(auth: Auth, providers: [any SignInProvider], methods: [SignInFlow.Method]) {
      self.auth = auth
      self.providers = providers
      self.methods = methods
      _model = State(initialValue: AuthViewModel(auth: auth))
    }

    public var body: some View {
      NavigationStack {
        switch model.state {
        case .restoring:
          ProgressView()
        case .signedIn:
          AccountView(
            flow: AccountFlow(auth: auth, issuer: "Example", providers: providers),
            linkable: methods.compactMap { method in
              if case .identityProvider(let id) = method, id != .apple { id } else { nil }
            })
        case .signedOut, .signingIn:
          SignInView(flow: SignInFlow(auth: auth, methods: methods, providers: providers))
        }
      }
      .signInTheme(SignInTheme(accent: .indigo, cornerRadius: 12))
      .task {
        async let following: Void = model.follow()
        _ = try? await auth.restorePreviousSignIn()
        await following
      }
    }
  }

  /// The app: put `@main` before it in an app target whose bundle has `GoogleService-Info.plist`
  /// and the Sign in with Apple capability. It offers Apple, email and password, and phone;
  /// pass `DropInRoot` your `GoogleProvider` and `OAuthProvider`s to offer theirs.
  public struct DropInApp: App {
    let auth: Auth

    public init() {
      guard let plist = Bundle.main.url(forResource: "GoogleService-Info", withExtension: "plist"),
        let configuration = try? FirebaseConfiguration(contentsOf: plist),
        let backend = try? FirebaseBackend(configuration: configuration)
      else { fatalError("Add the project's GoogleService-Info.plist to the app target: SignInKit reads it.") }
      auth = Auth(backend: backend)
    }

    public var body: some Scene {
      WindowGroup {
        DropInRoot(auth: auth, providers: [], methods: [.identityProvider(.apple), .emailPassword, .phone])
      }
    }
  }
// snippet.end
#endif
