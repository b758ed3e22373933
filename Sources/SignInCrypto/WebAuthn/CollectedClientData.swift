import Foundation

/// The client data a WebAuthn client (a browser, the platform, a development authenticator)
/// collected and the authenticator signed over (WebAuthn Level 3 §5.8.1): the ceremony type,
/// the challenge, and the origin that asked.
///
/// - Concurrency: `Sendable` value.
package struct CollectedClientData: Sendable, Equatable {
  /// `webauthn.create` (registration) or `webauthn.get` (assertion).
  package var type: String
  /// The challenge, decoded from its base64url form.
  package var challenge: [UInt8]
  package var origin: String
  package var crossOrigin: Bool

  package init(type: String, challenge: [UInt8], origin: String, crossOrigin: Bool = false) {
    self.type = type
    self.challenge = challenge
    self.origin = origin
    self.crossOrigin = crossOrigin
  }

  /// The client data JSON's longest accepted length.
  package static let maximumLength = 8 * 1024

  /// Reads `json`, the bytes of `clientDataJSON`.
  ///
  /// - Throws: ``WebAuthnRefusal`` when it is not a JSON object with string `type`,
  ///   `challenge` (base64url) and `origin`.
  package init(json: [UInt8]) throws(WebAuthnRefusal) {
    guard json.count <= Self.maximumLength,
      let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any]
    else { throw WebAuthnRefusal(.malformed, "clientDataJSON is not a JSON object of at most 8 KiB") }
    guard let type = object["type"] as? String, let challenge = object["challenge"] as? String,
      let origin = object["origin"] as? String
    else { throw WebAuthnRefusal(.malformed, "clientDataJSON lacks type, challenge or origin") }
    guard let bytes = Base64URL.decode(challenge), !bytes.isEmpty else {
      throw WebAuthnRefusal(.malformed, "clientDataJSON's challenge is not base64url")
    }
    self.init(type: type, challenge: bytes, origin: origin, crossOrigin: object["crossOrigin"] as? Bool ?? false)
  }

  /// The JSON a client sends, keys in the order WebAuthn's serialization gives them.
  package var json: [UInt8] {
    func quoted(_ text: String) -> String {
      let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
      return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
    let text =
      #"{"type":\#(quoted(type)),"challenge":\#(quoted(Base64URL.encode(challenge))),"#
      + #""origin":\#(quoted(origin)),"crossOrigin":\#(crossOrigin)}"#
    return Array(text.utf8)
  }
}
