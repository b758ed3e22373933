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
        announcing: { FileHandle.standardOutput.write(Data(logLine(for: $0, servedAt: served.withLock { $0 }).utf8)) })
      server = try FirebaseEmulatorServer(
        backend: backend, port: options.port, publicURL: options.publicURL, allowedOrigins: options.allowedOrigins,
        appCheckSecret: options.appCheckSecret)
      served.withLock { $0 = options.publicURL ?? URL(string: "http://\(server.host)") }
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
          imported += "warning: account \(refusal.index) was not imported: \(refusal.message)\n"
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
          + "Accounts, emails and texted codes: \(accountsPage(options, host: server.host))\n" + imported
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

  /// A sent message as the Firebase emulator logs it: the link to follow, or the code to type.
  static func logLine(for message: OutgoingMessage, servedAt base: URL?) -> String {
    switch message {
    case .email(let mail):
      let link =
        base.flatMap { EmulatorEndpoints.servedLink(of: mail, baseURL: $0) } ?? mail.link
        ?? "(no link; the code is \(mail.code))"
      let purpose =
        switch mail.kind {
        case "PASSWORD_RESET": "To reset the password for \(mail.to)"
        case "EMAIL_SIGNIN": "To sign in as \(mail.to)"
        case "VERIFY_AND_CHANGE_EMAIL": "To change the email address to \(mail.to)"
        default: "To verify the email address \(mail.to)"
        }
      return "\(purpose), follow this link: \(link)\n"
    case .text(let text):
      return "To verify the phone number \(text.phoneNumber), use the code \(text.code).\n"
    }
  }

  /// The accounts page's address: on the public URL when there is one.
  static func accountsPage(_ options: SigninOptions, host: String) -> String {
    var base = options.publicURL?.absoluteString ?? "http://\(host)"
    while base.hasSuffix("/") { base.removeLast() }
    return base + "/emulator/auth/accounts"
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
