import Foundation
import SignInConcurrency
import SignInEmulator
import SignInKit
import SignInKitEmbedded

/// `signin serve`: the embedded backend in the data folder, served as a Firebase Auth emulator
/// on 127.0.0.1 until SIGINT or SIGTERM. It trusts the embedded Google and Apple IdPs whose keys
/// live in the same folder, so `signin --backend emulator --data-dir DIR` in another process
/// signs in with them.
///
/// - Concurrency: nonisolated, on the launch's task (see ``SigninCommand``).
enum SigninServe {
  static func run(_ options: SigninOptions, directory: URL) async -> Never {
    let backend: EmbeddedBackend
    let server: FirebaseEmulatorServer
    do {
      let (google, apple) = try options.identityProviders(in: directory)
      // Links in the log point at this server's action page, known once it listens.
      let served = Locked<URL?>(nil)
      backend = try await options.embeddedBackend(
        in: directory, trusting: [google, apple],
        announcing: { message in
          let line = EmulatorEndpoints.logLine(for: message, baseURL: served.withLock { $0 })
          FileHandle.standardOutput.write(Data(line.utf8))
        })
      server = try FirebaseEmulatorServer(
        backend: backend, port: options.port, publicURL: options.publicURL, allowedOrigins: options.allowedOrigins,
        appCheckSecret: options.appCheckSecret)
      served.withLock { $0 = server.routes.policy.baseURL }
    } catch {
      let error = AuthError.wrapping(error)
      FileHandle.standardError.write(Data("signin serve could not start: \(error.message)\n".utf8))
      exit(error.code == .misconfigured ? 2 : 1)
    }
    // Loaded before the banner names the server, so no client sees half an import; said after it.
    var imported = ""
    if let folder = options.importFrom {
      do {
        let (count, refusals) = try await EmulatorExport.read(from: folder, into: backend)
        imported = "Imported \(count) accounts from \(folder.path).\n"
        for refusal in refusals {
          imported += "warning: account \(refusal.index) of \(refusal.file) was not imported: \(refusal.message)\n"
        }
      } catch {
        let error = AuthError.wrapping(error)
        FileHandle.standardError.write(Data("signin serve could not import \(folder.path): \(error.message)\n".utf8))
        await server.shutDown()
        exit(2)
      }
    }
    let (caught, sources) = catching([SIGINT, SIGTERM])
    for warning in backend.storageWarnings {
      FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
    }
    // Unbuffered, so a script reading the first line sees it at once.
    FileHandle.standardOutput.write(
      Data(
        ("FIREBASE_AUTH_EMULATOR_HOST=\(server.host)\n"
          + "Serving project \(options.project) from \(options.inMemory ? "memory" : directory.path); "
          + "export the line above in other shells and apps. Ctrl-C stops.\n"
          + "Accounts, emails and texted codes: \(EmulatorEndpoints.accountsPage(baseURL: server.routes.policy.baseURL))\n"
          + imported
          + options.hashCost.summary + "\n"
          + (options.appCheckSecret == nil
            ? "" : "App Check: every client call needs a token signed with the --app-check-secret key.\n"))
          .utf8))
    var signals = caught.makeAsyncIterator()
    let signal = await signals.next() ?? SIGTERM
    for source in sources { source.cancel() }
    // Requests in flight are answered before the backend closes, so none is cut off halfway.
    await server.shutDown()
    if let folder = options.exportOnExit {
      do {
        let count = try await EmulatorExport.write(backend, to: folder)
        FileHandle.standardOutput.write(Data("Exported \(count) accounts to \(folder.path).\n".utf8))
      } catch {
        FileHandle.standardError.write(
          Data("signin serve could not export: \(AuthError.wrapping(error).message)\n".utf8))
      }
    }
    await backend.close()
    let kept = options.inMemory ? "its in-memory accounts are gone" : "the data is saved in \(directory.path)"
    FileHandle.standardOutput.write(Data("Stopped (signal \(signal)); \(kept).\n".utf8))
    exit(0)
  }

  /// Starts catching `signals` now, before anyone knows the server is there, so a signal sent
  /// the moment the first line appears is not lost; the stream yields each one caught, kept
  /// until read.
  private static func catching(_ signals: [Int32]) -> (AsyncStream<Int32>, [any DispatchSourceSignal]) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
    let sources = signals.map { number -> any DispatchSourceSignal in
      Foundation.signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      return source
    }
    return (stream, sources)
  }
}
