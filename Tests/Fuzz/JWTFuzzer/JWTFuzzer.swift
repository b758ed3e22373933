// libFuzzer target: the JWT decoder must reject any input without crashing.
import SignInCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  if let jwt = try? JSONWebToken(decoding: text) {
    _ = (jwt.algorithm, jwt.keyID, jwt.issuer, jwt.audiences, jwt.expiresAt)
  }
  return 0
}
