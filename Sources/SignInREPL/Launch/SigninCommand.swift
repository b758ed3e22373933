import Foundation
import SignInConcurrency
import SignInEmulator
import SignInFoundation
import SignInKit
import SignInKitEmbedded

/// `signin`'s whole launch: parse the command line, build the backend, store and `Auth`, set up
/// the terminal and signals, run the commands, and exit with their status. The executable only
/// calls ``run(_:environment:)``.
///
/// - Concurrency: nonisolated. ``main(_:environment:)`` runs the launch on the calling thread
///   (the executable's main thread) through a task executor that the launch, the background
///   restore, the printers and `Auth`'s own tasks prefer, so `signin` starts on one thread
///   instead of waking the runtime's pool for every step; `start` gives the main thread to the
///   main actor when it first runs. Interactive commands and the
///   servers' connections run on the pool as usual.
package enum SigninCommand {
  /// Runs `signin` with `arguments` (without the program name) on the calling thread, and exits.
  package static func main(
    _ arguments: [String], environment: [String: String] = ProcessEnvironment.current()
  ) -> Never {
    let executor = LaunchThreadExecutor()
    Task(executorPreference: executor) { await run(arguments, environment: environment, on: executor) }
    executor.run()
    preconditionFailure("the launch ends the process itself")
  }

  static func run(_ arguments: [String], environment: [String: String], on executor: LaunchThreadExecutor) async
    -> Never
  {
    let options: SigninOptions
    do {
      switch try SigninOptions.parse(arguments) {
      case .help:
        print(SigninOptions.usage)
        exit(0)
      case .serveHelp:
        print(SigninOptions.serveUsage)
        exit(0)
      case .version:
        print("signin 0.1.0 (SignInKit)")
        exit(0)
      case .run(let parsed):
        options = parsed
      case .serve(let parsed):
        await SigninServe.run(parsed, directory: dataDirectory(parsed, environment: environment))
      }
    } catch {
      // A bad serve option gets serve's usage, not the client's.
      let usage = arguments.first == "serve" ? SigninOptions.serveUsage : SigninOptions.usage
      fail("\(error.message)\n\(usage)", status: 2)
    }
    await run(options, environment: environment, on: executor)
  }

  /// Handles SIGINT with `interrupt`, and SIGTERM and SIGHUP with `leave(143)` and
  /// `leave(129)` (the statuses a shell reports for them), on dispatch's signal sources; the
  /// sources stop when released.
  private static func watchSignals(
    interrupt: @escaping @Sendable () -> Void, leave: @escaping @Sendable (Int32) -> Void
  ) -> [any DispatchSourceSignal] {
    let actions: [(Int32, @Sendable () -> Void)] = [
      (SIGINT, interrupt), (SIGTERM, { leave(143) }), (SIGHUP, { leave(129) }),
    ]
    return actions.map { number, action in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler(handler: action)
      source.resume()
      return source
    }
  }

  /// `signin --watch`: restores, then prints every state and event as other processes that
  /// share the session folder sign in, out, or refresh, until SIGINT (status 0), SIGTERM or SIGHUP.
  private static func watch(
    _ auth: Auth, on backend: REPLBackend, folder: URL, renderer: Renderer, executor: LaunchThreadExecutor
  ) async -> Never {
    await renderer.setWatching(true)
    let states = Task(executorPreference: executor) { await renderer.show(auth.states) }
    let events = Task(executorPreference: executor) { await renderer.show(auth.events) }
    let restored = await Task(executorPreference: executor) { try? await auth.restorePreviousSignIn() }.value
    // Said once the restore has settled, so whatever changes after it is followed and shown.
    await renderer.say(
      "following the session in \(folder.path) on \(backend.summary); "
        + "\(restored == nil ? "nobody is signed in" : "signed in") now. Ctrl-C to stop.")
    // The first signal decides the status, whether it comes before the wait starts or during it.
    let stop = Locked<(waiter: CheckedContinuation<Int32, Never>?, status: Int32?)>((nil, nil))
    let signalled: @Sendable (Int32) -> Void = { status in
      let waiter = stop.withLock { stop -> CheckedContinuation<Int32, Never>? in
        guard stop.status == nil else { return nil }
        stop.status = status
        return stop.waiter
      }
      waiter?.resume(returning: status)
    }
    let sources = watchSignals(interrupt: { signalled(0) }, leave: signalled)
    let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
      let already = stop.withLock { stop -> Int32? in
        if stop.status == nil { stop.waiter = continuation }
        return stop.status
      }
      if let already { continuation.resume(returning: already) }
    }
    withExtendedLifetime(sources) {}
    await auth.shutdown()
    await states.value
    await events.value
    await backend.close()
    exit(status)
  }

  private static func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
  }

  /// The home folder: `$HOME` when set (as every Unix tool honours it), else the account's.
  static func home(_ environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
  }

  /// `--data-dir`, or `$XDG_DATA_HOME/signinkit/PROJECT` (`~/.local/share/signinkit/PROJECT`).
  static func dataDirectory(_ options: SigninOptions, environment: [String: String]) -> URL {
    if let given = options.dataDirectory { return given }
    // Only when no folder is given: looking up the home folder costs about half a millisecond.
    let dataHome =
      environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? (home(environment) + "/.local/share")
    return URL(fileURLWithPath: dataHome, isDirectory: true).appendingFileName("signinkit/\(options.project)")
  }

  private static func run(_ options: SigninOptions, environment: [String: String], on executor: LaunchThreadExecutor)
    async -> Never
  {
    let directory = dataDirectory(options, environment: environment)

    let backend: REPLBackend
    let google: EmbeddedIdentityProvider
    let apple: EmbeddedIdentityProvider
    do {
      (google, apple) = try options.identityProviders(in: directory)
      switch options.backend {
      case .firebase:
        var firebase = try options.configFile.map(FirebaseConfiguration.init(contentsOf:))
        if let apiKey = options.apiKey {
          if firebase == nil { firebase = FirebaseConfiguration(apiKey: apiKey, projectID: "") }
          firebase?.apiKey = apiKey
        }
        if options.projectGiven { firebase?.projectID = options.project }
        guard let firebase, !firebase.projectID.isEmpty else {
          fail(
            "--backend firebase needs --config FILE, or --api-key KEY and --project ID.\n\(SigninOptions.usage)",
            status: 2)
        }
        var client = try FirebaseBackend(configuration: firebase, environment: environment)
        client.tenantID = options.tenant
        if let host = client.emulatorHost {
          FileHandle.standardError.write(
            Data(
              ("warning: FIREBASE_AUTH_EMULATOR_HOST is set, so --backend firebase talks to the emulator at \(host), as "
                + "Firebase's SDKs do; unset it to reach production.\n").utf8))
        }
        backend = .firebase(client)
      case .emulator:
        let host = environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:9099"
        var client = try FirebaseBackend.emulator(
          host: host, projectID: options.project, apiKey: options.apiKey ?? "fake-api-key")
        client.tenantID = options.tenant
        // `signin serve` accepts these when its project enforces reCAPTCHA; the Firebase emulator never does.
        client.recaptcha = TestRecaptchaTokenProvider()
        client.appCheck = options.appCheckSecret.map {
          FirebaseBackend.AppCheck(provider: EmulatorAppCheckTokenProvider(secret: $0, projectID: options.project))
        }
        backend = .firebase(client)
      case .embedded:
        // The accounts open when a command first needs them: `signin -c quit` never does.
        let embedded = try await options.embeddedBackend(
          in: directory, trusting: [google, apple],
          openingDatabaseOnFirstUse: { warnings in
            for warning in warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
          })
        // A tenant's users live beside the project's, where `signin serve` keeps them.
        backend = .embedded(try options.tenant.map { try embedded.tenant($0) } ?? embedded)
      }
    } catch let error as AuthError where error.code == .misconfigured {
      fail(error.message, status: 2)
    } catch {
      fail("signin could not start: \(error)", status: 1)
    }
    let store: any SessionStore =
      options.inMemory
      ? InMemorySessionStore() : FileSessionStore(directory: directory.appendingFileName(backend.sessionFolder))
    // A watcher only follows: the processes it watches refresh their own tokens.
    let auth = Auth(
      backend: options.latency > .zero ? DelayedBackend(backend.auth, delay: options.latency) : backend.auth,
      store: store,
      configuration: AuthConfiguration(refreshesAutomatically: !options.watchOnly, taskExecutor: executor))
    let renderer = Renderer(json: options.json, style: .forStandardOutput(environment: environment))
    if options.watchOnly {
      await watch(
        auth, on: backend, folder: directory.appendingFileName(backend.sessionFolder), renderer: renderer,
        executor: executor)
    }

    // At a terminal, keys are read raw for the line editor; the terminal is put back at exit.
    let terminal = TerminalMode.raw(STDIN_FILENO)
    let keyboard = KeyboardInput()
    let terminalInput: TerminalInput?
    if terminal != nil {
      keyboard.startReading(from: STDIN_FILENO)
      terminalInput = TerminalInput(
        keyboard: keyboard, renderer: renderer,
        history: CommandHistory(file: CommandHistory.defaultFile(environment: environment)),
        columns: { TerminalMode.columns(of: STDOUT_FILENO) },
        knownEmails: { await backend.knownEmails() })
    } else {
      terminalInput = nil
    }
    let pipeInput = PipeInput()
    let session = REPLSession(
      auth: auth, backend: backend, google: google, apple: apple, renderer: renderer,
      input: terminalInput ?? pipeInput, issuers: options.issuers,
      googleRefreshTokenFile: options.inMemory ? nil : directory.appendingFileName("idp/google-refresh-token"),
      passkeyFolder: options.inMemory ? nil : directory.appendingFileName("development-authenticator"),
      needsMainActor: { executor.releaseMainThread() })

    // At a terminal, SIGINT (kill -INT; Ctrl-C itself arrives as a key) cancels the command in
    // flight, and SIGTERM and SIGHUP put the terminal back before leaving. Without one there is
    // nothing to put back, and the signals keep their default actions.
    let signalSources =
      terminal.map { terminal in
        watchSignals(
          interrupt: { [keyboard] in keyboard.interrupt() },
          leave: { status in
            terminal.restore()
            exit(status)
          })
      } ?? []
    // One subscriber prints every state change and event as it happens.
    let states = Task(executorPreference: executor) { await renderer.show(auth.states) }
    let events = Task(executorPreference: executor) { await renderer.show(auth.events) }
    let users = Task(executorPreference: executor) { await renderer.show(auth.users) }

    // Restore the previous sign-in: in the background at an interactive prompt (usable at once),
    // before the first command otherwise, so scripts are deterministic.
    let interactive = options.script == nil && terminalInput != nil
    if interactive { await renderer.say("signin on \(backend.summary). Type 'help' for the commands.") }
    let restore = Task(executorPreference: executor) { _ = await session.run(RestoreCommand()) }
    if !interactive { await restore.value }

    let status: ExitStatus
    if let script = options.script {
      status = await ScriptLoop(session: session, renderer: renderer).run(script: script)
    } else if let terminalInput {
      status = await TerminalLoop(session: session, renderer: renderer, input: terminalInput, keyboard: keyboard).run()
    } else {
      status = await ScriptLoop(session: session, renderer: renderer).run(lines: pipeInput)
    }

    restore.cancel()
    await auth.shutdown()
    await states.value
    await events.value
    await users.value
    await backend.close()
    terminal?.restore()
    withExtendedLifetime(signalSources) {}
    exit(status.code)
  }
}
