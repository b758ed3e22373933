import Foundation
import SignInWire

extension FirebaseBackend {
  public func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneCodeResponse {
    let info = try await phoneInfo(for: request.phoneNumber)
    var body = SendVerificationCodeBody()
    body.phoneNumber = info.phoneNumber
    body.iosReceipt = info.iosReceipt
    body.iosSecret = info.iosSecret
    body.recaptchaToken = info.recaptchaToken
    let reply = try await protected(.phone, .sendVerificationCode) { answer in
      try await call(FirebaseAPI.sendVerificationCode, body.answering(answer))
    }
    return try Self.codeSent(reply, in: FirebaseAPI.sendVerificationCode.name)
  }

  public func signInWithPhoneNumber(_ request: PhoneSignInRequest) async throws -> SignInResponse {
    var body = PhoneSignInBody()
    body.sessionInfo = request.verificationID
    body.code = request.code
    body.idToken = request.idToken
    body.operation =
      switch request.operation {
      case .link: .link
      case .update: .update
      case nil: nil
      }
    let reply = try await call(FirebaseAPI.signInWithPhoneNumber, body)
    try reply.rejectSecondFactor(firstFactor: .phone)
    let name = FirebaseAPI.signInWithPhoneNumber.name
    let tokens = try reply.tokens(in: name)
    return SignInResponse(
      localID: try reply.localId ?? Self.uid(of: tokens, replyingTo: name), tokens: tokens,
      isNewUser: reply.isNewUser ?? false)
  }

  /// The phone number and the app's proof (``appVerifier``) for a call that texts a code. The
  /// emulator and Firebase's fictional test numbers take calls without a proof, so a backend
  /// without a verifier sends none; one with a verifier proves the app to the emulator too,
  /// which checks the proof as production does.
  func phoneInfo(for phoneNumber: String?) async throws -> StartMfaPhoneInfo {
    var info = StartMfaPhoneInfo(phoneNumber: phoneNumber)
    guard let appVerifier else { return info }
    switch try await appVerifier.proof(for: self) {
    case .silentPush(let receipt, let secret):
      info.iosReceipt = receipt
      info.iosSecret = secret
    case .recaptcha(let token):
      info.recaptchaToken = token
    }
    return info
  }

  /// `accounts:verifyIosClient`: the receipt of the silent push Firebase sends to `token`, and
  /// how long to wait for it.
  ///
  /// - Throws: ``AuthError/Code/appVerificationFailed`` when Firebase refuses the token.
  func verifyIosClient(_ token: SilentPushAppVerifier.DeviceToken) async throws -> (receipt: String, timeout: Duration)
  {
    let reply = try await call(
      FirebaseAPI.verifyIosClient, VerifyIosClientBody(appToken: token.hex, isSandbox: token.isSandbox))
    let name = FirebaseAPI.verifyIosClient.name
    let timeout =
      try reply.suggestedTimeout.map {
        try JSONReply.duration(seconds: Double($0), named: "suggestedTimeout", in: name, within: 0...600)
      } ?? .seconds(5)
    return (try reply.required(reply.receipt, .receipt, in: name), timeout)
  }

  /// The project's auth domain, where its hosted handler lives: the first authorized domain on
  /// `firebaseapp.com` or `web.app`, or the emulator's host.
  func authDomain() async throws -> String {
    if let emulatorHost { return "\(emulatorHost)" }
    let config = try await call(FirebaseAPI.projectConfig, NoBody())
    let domains = config.authorizedDomains ?? []
    guard
      let domain = domains.first(where: { $0.hasSuffix(".firebaseapp.com") })
        ?? domains.first(where: { $0.hasSuffix(".web.app") })
    else {
      throw AuthError(
        .misconfigured,
        "The project lists no firebaseapp.com or web.app domain for its hosted handler; add one under Authorized "
          + "domains, or give the verifier an authDomain.")
    }
    return domain
  }

  /// The verification a texted code belongs to, from a reply's `sessionInfo`.
  static func codeSent(_ reply: SessionInfoReply?, in call: String) throws -> PhoneCodeResponse {
    guard let sessionInfo = reply?.sessionInfo else {
      throw AuthError(.invalidResponse, "The reply to \(call) has no sessionInfo. Try again.")
    }
    return PhoneCodeResponse(verificationID: sessionInfo)
  }
}
