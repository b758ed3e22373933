#if canImport(AuthenticationServices) && !os(watchOS)
  import AuthenticationServices
  import Foundation

  /// ``WebAuthenticationSession`` over `ASWebAuthenticationSession`, presented over the window
  /// `anchor` gives.
  ///
  /// - Concurrency: `Sendable`; the session is created and started on the main actor.
  public struct SystemWebAuthenticationSession: WebAuthenticationSession {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    /// Whether the sheet shares cookies with Safari (`false`: the person may already be
    /// signed in at the provider there).
    public var isEphemeral: Bool

    public init(
      isEphemeral: Bool = false, presentingFrom anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
    ) {
      self.anchor = anchor
      self.isEphemeral = isEphemeral
    }

    public func authenticate(at url: URL, callbackScheme: String) async throws -> URL {
      try await WebSheet.run(url: url, callbackScheme: callbackScheme, ephemeral: isEphemeral, anchor: anchor)
    }
  }

  /// One `ASWebAuthenticationSession`, bridged to async.
  @MainActor final class WebSheet: NSObject, ASWebAuthenticationPresentationContextProviding {
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    private var session: ASWebAuthenticationSession?

    private init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) { self.anchor = anchor }

    private func cancel() { session?.cancel() }

    static func run(
      url: URL, callbackScheme: String, ephemeral: Bool,
      anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
    ) async throws -> URL {
      let sheet = WebSheet(anchor: anchor)
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
          let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackScheme) { callback, error in
            if let callback {
              continuation.resume(returning: callback)
            } else {
              let code =
                (error as NSError?).map { $0.domain == ASWebAuthenticationSessionError.errorDomain ? $0.code : 0 } ?? 0
              continuation.resume(throwing: OpenIDConnectProvider.error(forWebAuthenticationErrorCode: code))
            }
          }
          session.presentationContextProvider = sheet
          session.prefersEphemeralWebBrowserSession = ephemeral
          sheet.session = session
          if !session.start() {
            continuation.resume(throwing: OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 2))
          }
        }
      } onCancel: {
        Task { @MainActor in sheet.cancel() }
      }
    }

    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
      anchor()
    }
  }
#endif
