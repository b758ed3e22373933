import Foundation
import SignInKit

// snippet.begin google-api-call
/// The files an app made in the user's Google Drive, through Drive's REST API with the Google
/// session's access token: Drive access is asked for once, when first needed (incremental
/// authorization), and a fresh token is had for each call.
///
/// - Concurrency: `Sendable` value; calls may run at once, and share one token refresh.
public struct GoogleDriveFiles: Sendable {
  public static let scope = "https://www.googleapis.com/auth/drive.file"
  let google: OpenIDConnectProvider
  let transport: any HTTPTransport

  public init(google: OpenIDConnectProvider, transport: any HTTPTransport = URLSessionTransport()) {
    self.google = google
    self.transport = transport
  }

  /// Drive's answer to `files.list`, as JSON.
  public func list() async throws -> Data {
    if await !google.grantedScopes.contains(Self.scope) {
      try await google.addScopes([Self.scope])  // shows Google's consent for Drive, once
    }
    let token = try await google.freshAccessToken()
    let reply = try await transport.send(
      HTTPRequest(
        method: "GET", url: URL(string: "https://www.googleapis.com/drive/v3/files")!,
        headers: [("Authorization", "Bearer \(token)")]))
    guard reply.status == 200 else {
      throw AuthError(.invalidResponse, "Drive answered \(reply.status); check the scope and try again.")
    }
    return reply.body
  }
}
// snippet.end

// snippet.begin google-session-at-launch
/// At launch: the SignInKit session and the Google session come back together (the Google
/// preset keeps its refresh token and granted scopes in the keychain), so Drive calls work
/// without a new sign-in.
public func restoreWithGoogle(_ auth: Auth, google: OpenIDConnectProvider) async throws -> User? {
  try await auth.restorePreviousSignIn(alongWith: [google])
}
// snippet.end
