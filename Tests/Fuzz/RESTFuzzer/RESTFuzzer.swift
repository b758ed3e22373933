// libFuzzer target: FirebaseBackend's and OIDCClient's response decoders must turn any reply into
// a value or an AuthError, never a crash. The first byte picks the HTTP status; the rest is the
// body. The same bytes are also tried as the value of every duration field (`expiresIn`,
// `expires_in`, `interval`) inside an otherwise valid reply, quoted and bare, since a number from
// a server that becomes a `Duration` is where a crash would hide.
import Dispatch
import Foundation

@testable import SignInKit

struct CannedTransport: HTTPTransport {
  let response: HTTPResponse
  func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
}

let metadata = OIDCProviderMetadata(
  issuer: "https://issuer.example", authorizationEndpoint: URL(string: "https://issuer.example/auth")!,
  tokenEndpoint: URL(string: "https://issuer.example/token")!, jwksURI: URL(string: "https://issuer.example/jwks")!,
  deviceAuthorizationEndpoint: URL(string: "https://issuer.example/device")!)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzREST(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let first = bytes.first else { return 0 }
  let status = [200, 400, 403, 429, 500, 502][Int(first) % 6]
  let response = HTTPResponse(status: status, body: Data(bytes.dropFirst()))
  let value = String(decoding: bytes.dropFirst(), as: UTF8.self)
  let number = value.filter { !"\"\\{}".contains($0) }
  let durations = [#""\#(number)""#, number].map { number in
    [
      HTTPResponse(
        status: 200, body: Data(#"{"localId":"u","idToken":"t","refreshToken":"r","expiresIn":\#(number)}"#.utf8)),
      HTTPResponse(status: 200, body: Data(#"{"id_token":"t","user_id":"u","expires_in":\#(number)}"#.utf8)),
      HTTPResponse(status: 200, body: Data(#"{"access_token":"a","expires_in":\#(number)}"#.utf8)),
      HTTPResponse(
        status: 200,
        body: Data(
          #"{"device_code":"d","user_code":"u","verification_uri":"https://x.example","interval":\#(number),"expires_in":\#(number)}"#
            .utf8)),
    ]
  }.flatMap { $0 }
  let done = DispatchSemaphore(value: 0)
  Task {
    defer { done.signal() }
    guard
      var backend = try? FirebaseBackend(
        apiKey: "K", projectID: "p", transport: CannedTransport(response: response), environment: [:])
    else { return }
    backend.refreshAttempts = 1
    _ = try? await backend.signUp(SignUpRequest(email: "a@b.co", password: "pw-123456"))
    _ = try? await backend.signInWithIdp(
      IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: "t")))
    _ = try? await backend.refresh(RefreshTokenRequest(refreshToken: "r"))
    _ = try? await backend.lookup(LookupRequest(idToken: "t"))
    _ = try? await backend.update(UpdateAccountRequest(idToken: "t", displayName: "n"))
    _ = try? await backend.resetPassword(ResetPasswordRequest(oobCode: "c"))
    for reply in durations {
      guard
        let backend = try? FirebaseBackend(
          apiKey: "K", projectID: "p", transport: CannedTransport(response: reply), environment: [:])
      else { continue }
      _ = try? await backend.signInWithPassword(PasswordSignInRequest(email: "a@b.co", password: "pw-123456"))
      _ = try? await backend.refresh(RefreshTokenRequest(refreshToken: "r"))
      let client = OIDCClient(metadata: metadata, clientID: "c", transport: CannedTransport(response: reply))
      _ = try? await client.tokenRequest([("grant_type", "authorization_code")])
      _ = try? await client.startDeviceAuthorization(scopes: ["openid"])
    }
  }
  done.wait()
  return 0
}
