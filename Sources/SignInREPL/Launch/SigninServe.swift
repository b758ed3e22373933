import Foundation
import SignInKit
import SignInKitEmbedded
import Synchronization

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
      backend = try await options.embeddedBackend(in: directory, trusting: [google, apple])
      server = try FirebaseEmulatorServer(
        backend: backend, port: options.port, publicURL: options.publicURL, allowedOrigins: options.allowedOrigins)
    } catch {
      let error = AuthError.wrapping(error)
      FileHandle.standardError.write(Data("signin serve could not start: \(error.message)\n".utf8))
      exit(error.code == .misconfigured ? 2 : 1)
    }
    for warning in backend.storageWarnings {
      FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
    }
    // Unbuffered, so a script reading the first line sees it at once.
    FileHandle.standardOutput.write(
      Data(
        ("FIREBASE_AUTH_EMULATOR_HOST=\(server.host)\n"
          + "Serving project \(options.project) from \(options.inMemory ? "memory" : directory.path); "
          + "export the line above in other shells and apps. Ctrl-C stops.\n").utf8))
    let signal = await firstSignal(of: [SIGINT, SIGTERM])
    // Requests in flight are answered before the backend closes, so none is cut off halfway.
    await server.shutDown()
    await backend.close()
    FileHandle.standardOutput.write(Data("Stopped (signal \(signal)); the data is saved.\n".utf8))
    exit(0)
  }

  /// Waits for the first of `signals`.
  private static func firstSignal(of signals: [Int32]) async -> Int32 {
    var sources: [any DispatchSourceSignal] = []
    let number = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
      let once = OnceFlag()
      for number in signals {
        Foundation.signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { if once.claim() { continuation.resume(returning: number) } }
        source.resume()
        sources.append(source)
      }
    }
    for source in sources { source.cancel() }
    return number
  }
}

/// `true` for the first caller only.
private final class OnceFlag: Sendable {
  private let claimed = Mutex(false)
  func claim() -> Bool {
    claimed.withLock { isClaimed in
      defer { isClaimed = true }
      return !isClaimed
    }
  }
}
