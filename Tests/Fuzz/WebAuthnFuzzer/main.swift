// libFuzzer target: the WebAuthn readers (CBOR, COSE keys, authenticator data, attestation
// objects, client data) must reject any input without crashing, looping or allocating more
// than the input's size suggests. The first byte picks the reader.
import SignInCrypto

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebAuthn(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let selector = bytes.first else { return 0 }
  let input = Array(bytes.dropFirst())
  switch selector % 5 {
  case 0:
    if let value = try? CBOR.decode(input) { _ = value.encoded }
  case 1:
    _ = try? COSEKey(bytes: input)
  case 2:
    _ = try? AuthenticatorData(input)
  case 3:
    let party = WebAuthnRelyingParty(id: "localhost")
    let client = CollectedClientData(type: "webauthn.create", challenge: [1, 2, 3], origin: "http://localhost")
    _ = try? party.verifyRegistration(clientDataJSON: client.json, attestationObject: input, challenge: [1, 2, 3])
  default:
    _ = try? CollectedClientData(json: input)
  }
  return 0
}
