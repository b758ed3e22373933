import Observation

/// The sign-in state for SwiftUI: an `@Observable` mirror of ``AuthStateStore`` on the main
/// actor, so a view reads `model.user` or `model.state` and re-renders when, and only when, what
/// it read changed.
///
/// ```swift
/// @main struct ExampleApp: App {
///   @State private var model = AuthViewModel(auth: auth)
///   var body: some Scene {
///     WindowGroup {
///       RootView(model: model)
///         .task { await model.follow() }   // the view's task owns the subscription
///     }
///   }
/// }
///
/// struct RootView: View {
///   let model: AuthViewModel
///   var body: some View {
///     switch model.state {
///     case .restoring: ProgressView()
///     case .signedIn: HomeView(user: model.user)
///     default: SignInView(isBusy: model.isBusy, error: model.errorMessage)
///     }
///   }
/// }
/// ```
///
/// Each property changes in the order ``Auth`` published it, and only when its value changes: a
/// token refresh that moves the session's health from `.fresh` to `.refreshing` and back changes
/// ``state`` but leaves ``user`` untouched, so a view that reads only `user` is not invalidated.
/// Nothing runs until ``follow()`` is called (no task is started in `init`).
///
/// - Concurrency: `@MainActor`. ``follow()`` runs on the main actor in the caller's task.
@MainActor @Observable public final class AuthViewModel {
  /// The sign-in state, as ``Auth/states`` publishes it.
  public private(set) var state: AuthState
  /// The signed-in user; kept while a sign-in is in flight, `nil` when signed out.
  public private(set) var user: User?
  /// `true` while an operation the app started is in flight.
  public private(set) var isBusy: Bool
  /// The last failure in plain words, cleared when the next operation starts.
  public private(set) var errorMessage: String?

  @ObservationIgnored private let auth: Auth

  /// A model showing what `auth` last published; call ``follow()`` to keep it current.
  public init(auth: Auth) {
    self.auth = auth
    state = auth.currentState
    user = auth.currentUser
    isBusy = false
    errorMessage = nil
  }

  /// Keeps the model current until `auth` shuts down or the calling task is cancelled (for
  /// example when the SwiftUI view that started it with `.task` goes away).
  ///
  /// The current values first, then every change, each applied on the main actor in the order
  /// `Auth` published it. A main actor that falls behind skips to the newest values; it never
  /// slows `Auth`. Calling it again while one call is running follows the same store twice,
  /// which is harmless.
  public func follow() async {
    // Subscribed before reading the current screen: a change in between arrives in the stream
    // too, and showing it twice changes nothing.
    let screens = auth.stateStore.screens.subscribe()
    show(auth.stateStore.currentScreen)
    for await screen in screens {
      show(screen)
    }
  }

  private func show(_ screen: AuthStateStore.Screen) {
    if state != screen.state { state = screen.state }
    if user != screen.user { user = screen.user }
    if isBusy != screen.isBusy { isBusy = screen.isBusy }
    if errorMessage != screen.errorMessage { errorMessage = screen.errorMessage }
  }
}
