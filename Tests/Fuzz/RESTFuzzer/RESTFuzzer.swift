// libFuzzer target: FirebaseBackend's response decoders must turn any reply into a value or an
// AuthError, never a crash. The first byte picks the HTTP status; the rest is the body.
import Dispatch
import Foundation
import SignInKit

struct CannedTransport: HTTPTransport {
  let response: HTTPResponse
  func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzREST(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let first = bytes.first else { return 0 }
  let status = [200, 400, 403, 429, 500, 502][Int(first) % 6]
  let response = HTTPResponse(status: status, body: Data(bytes.dropFirst()))
  let done = DispatchSemaphore(value: 0)
  Task {
    defer { done.signal() }
    guard
      var backend = try? FirebaseBackend(
        apiKey: "K", projectID: "p", transport: CannedTransport(response: response), environment: [:])
    else { return }
    backend.refreshAttempts = 1
    _ = try? await backend.signUp(SignUpRequest(email: "a@b.co", password: "pw-123456"))
    _ = try? await backend.signInWithIdp(IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: "t")))
    _ = try? await backend.refresh(RefreshTokenRequest(refreshToken: "r"))
    _ = try? await backend.lookup(LookupRequest(idToken: "t"))
    _ = try? await backend.update(UpdateAccountRequest(idToken: "t", displayName: "n"))
    _ = try? await backend.resetPassword(ResetPasswordRequest(oobCode: "c"))
  }
  done.wait()
  return 0
}
