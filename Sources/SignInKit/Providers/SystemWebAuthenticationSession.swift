#if canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
  import AuthenticationServices
  import Foundation
  import SignInConcurrency

  /// ``WebAuthenticationSession`` over `ASWebAuthenticationSession`, presented over the window
  /// `anchor` gives.
  ///
  /// - Concurrency: `Sendable`; the session is created, started and cancelled on the main
  ///   actor. Its completion handler is not isolated to it: the system may call it on another
  ///   thread (it does on macOS), and it only hands the answer to the waiting task.
  public struct SystemWebAuthenticationSession: WebAuthenticationSession {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    /// Whether the sheet shares cookies with Safari (`false`: the person may already be
    /// signed in at the provider there).
    public var isEphemeral: Bool

    /// - Parameters:
    ///   - isEphemeral: whether the sheet keeps its cookies apart from Safari's.
    ///   - anchor: the window to present over; by default a new anchor, over which the system
    ///     presents on the app's key window.
    public init(
      isEphemeral: Bool = false,
      presentingFrom anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor = { ASPresentationAnchor() }
    ) {
      self.anchor = anchor
      self.isEphemeral = isEphemeral
    }

    public func authenticate(at url: URL, callbackScheme: String) async throws -> URL {
      try await WebSheet.run(url: url, callbackScheme: callbackScheme, ephemeral: isEphemeral, anchor: anchor)
    }
  }

  /// One `ASWebAuthenticationSession`, bridged to async through a ``CallbackContinuation``.
  @MainActor final class WebSheet: NSObject, ASWebAuthenticationPresentationContextProviding {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    private var session: ASWebAuthenticationSession?

    private init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) { self.anchor = anchor }

    static func run(
      url: URL, callbackScheme: String, ephemeral: Bool,
      anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
    ) async throws -> URL {
      let sheet = WebSheet(anchor: anchor)
      let answer = CallbackContinuation<URL> { OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 1) }
      // @Sendable: not isolated to the main actor, so a call on another thread cannot trap.
      let completion: @Sendable (URL?, (any Error)?) -> Void = { callback, error in
        let nsError = error as NSError?
        answer.resume(
          with: OpenIDConnectProvider.webAuthenticationResult(
            callback: callback,
            errorCode: nsError.map { $0.domain == ASWebAuthenticationSessionError.errorDomain ? $0.code : 0 }))
      }
      defer { sheet.session = nil }
      return try await answer.value {
        let session = ASWebAuthenticationSession(
          url: url, callbackURLScheme: callbackScheme, completionHandler: completion)
        session.presentationContextProvider = sheet
        session.prefersEphemeralWebBrowserSession = ephemeral
        sheet.session = session
        if !session.start() {
          answer.resume(with: .failure(OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 2)))
        }
      } onCancel: {
        Task { @MainActor in sheet.session?.cancel() }
      }
    }

    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
      anchor()
    }
  }
#endif

/// The system web-authentication sheet of this platform, where there is one.
enum SystemWebSheet {
  #if canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
    static let isAvailable = true
    /// A `SystemWebAuthenticationSession` over the app's key window.
    static var session: (any WebAuthenticationSession)? { SystemWebAuthenticationSession() }
  #else
    static let isAvailable = false
    static var session: (any WebAuthenticationSession)? { nil }
  #endif
}
