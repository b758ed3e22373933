/// The global actor that owns everything a screen shows about sign-in.
///
/// Like `MainActor`, it is one serial domain for the whole process; unlike it, it needs no main
/// thread or run loop, so a command-line program or a server gets a UI-state domain too.
/// ``AuthStateStore`` is isolated to it, so view models and renderers that read sign-in state are
/// `@UIStateActor` too, and the "publishing changes from background threads" bug cannot compile.
///
/// ```swift
/// @UIStateActor final class SignInViewModel {
///   let store: AuthStateStore
///   var title: String { store.state.isSignedIn ? "Welcome" : "Sign in" }
/// }
/// ```
///
/// It is scheduled by the runtime like any default actor: a hop onto it costs what a hop onto an
/// ordinary actor costs, not a thread wake-up (a dedicated dispatch queue made every
/// `await auth.stateStore.state` about 400 times dearer, measured in `signin-bench`).
///
/// - Concurrency: global actor on the runtime's default actor executor, serial; the runtime
///   checks isolation, so `UIStateActor.preconditionIsolated()` and ``assumeIsolated(_:file:line:)``
///   work from synchronous code that runs on it.
@globalActor public final actor UIStateActor: GlobalActor {
  /// The one instance.
  public static let shared = UIStateActor()

  private init() {}
}

extension UIStateActor {
  /// Runs `operation` as `@UIStateActor` code from a synchronous context that is known to be
  /// running on the actor (a plain callback invoked by `@UIStateActor` code), like
  /// `MainActor.assumeIsolated`.
  ///
  /// - Important: traps when called off the actor; the runtime checks the executor the calling
  ///   code runs on, so it works from callbacks the compiler cannot see as isolated.
  /// - Concurrency: synchronous; no suspension.
  public static func assumeIsolated<T: Sendable>(
    _ operation: @UIStateActor () throws -> T, file: StaticString = #fileID, line: UInt = #line
  ) rethrows -> T {
    typealias Isolated = @UIStateActor () throws -> T
    typealias Plain = () throws -> T
    shared.preconditionIsolated(
      "UIStateActor.assumeIsolated called off the UI state actor", file: file, line: line)
    // The precondition proved we are on the actor's executor, so dropping the static isolation
    // of the closure type is sound; this is how the standard library implements it for MainActor.
    return try withoutActuallyEscaping(operation) { isolated in
      try unsafeBitCast(isolated, to: Plain.self)()
    }
  }
}
