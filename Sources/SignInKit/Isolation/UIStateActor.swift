/// The global actor that owns everything a screen shows about sign-in.
///
/// Like `MainActor`, it is serial; unlike it, it runs on its own dispatch queue, so a command-line
/// program or a server gets a UI-state domain without a run loop. ``AuthStateStore`` is isolated to
/// it, so view models and renderers that read sign-in state are `@UIStateActor` too, and the
/// "publishing changes from background threads" bug cannot compile.
///
/// ```swift
/// @UIStateActor final class SignInViewModel {
///   let store: AuthStateStore
///   var title: String { store.state.isSignedIn ? "Welcome" : "Sign in" }
/// }
/// ```
///
/// - Concurrency: global actor on a dedicated serial executor; `checkIsolated()` is implemented, so
///   `UIStateActor.preconditionIsolated()` works from synchronous callbacks on its queue.
@globalActor public final actor UIStateActor: GlobalActor {
  /// The one instance.
  public static let shared = UIStateActor()

  private static let executor = UIStateExecutor(label: "signinkit.ui-state")

  /// The executor every `@UIStateActor` job runs on; the same value as ``unownedExecutor``.
  public static var sharedUnownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.sharedUnownedExecutor }

  private init() {}
}

extension UIStateActor {
  /// Runs `operation` as `@UIStateActor` code from a synchronous context that is known to be
  /// running on the UI state executor (a callback on its queue), like `MainActor.assumeIsolated`.
  ///
  /// - Important: traps when called off the UI state executor; the check is the executor's
  ///   `checkIsolated()`, so it works from callbacks the compiler cannot see as isolated.
  /// - Concurrency: synchronous; no suspension.
  public static func assumeIsolated<T: Sendable>(
    _ operation: @UIStateActor () throws -> T, file: StaticString = #fileID, line: UInt = #line
  ) rethrows -> T {
    typealias Isolated = @UIStateActor () throws -> T
    typealias Plain = () throws -> T
    shared.preconditionIsolated(
      "UIStateActor.assumeIsolated called off the UI state executor", file: file, line: line)
    // The precondition proved we are on the actor's executor, so dropping the static isolation
    // of the closure type is sound; this is how the standard library implements it for MainActor.
    return try withoutActuallyEscaping(operation) { isolated in
      try unsafeBitCast(isolated, to: Plain.self)()
    }
  }
}
