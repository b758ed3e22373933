import Foundation
import Testing

@testable import SignInWire

struct LenientTests {
  @Test func aReplyIsReadWhateverTypesItsFieldsCameIn() throws {
    let reply = try JSONDecoder().decode(
      SignInReply.self,
      from: Data(
        #"{"localId":"u1","email":"","isNewUser":"true","registered":false,"expiresIn":3600,"displayName":7,"mfaInfo":[1,{"mfaEnrollmentId":"e1","totpInfo":{}},"x"],"unknown":{"a":[]}}"#
          .utf8))
    #expect(reply.localId == "u1")
    #expect(reply.email == nil, "an empty string is no value")
    #expect(reply.isNewUser == true)
    #expect(reply.registered == false)
    #expect(reply.expiresIn == "3600")
    #expect(reply.displayName == "7")
    #expect(reply.mfaInfo?.map(\.mfaEnrollmentId) == ["e1"], "entries that are not objects are left out")
    #expect(reply.mfaInfo?.first?.totpInfo == NoBody())
  }

  @Test func aFieldOfAnUnreadableTypeIsNoValueNotAFailedReply() throws {
    let reply = try JSONDecoder().decode(
      StartMfaEnrollmentReply.self,
      from: Data(#"{"totpSessionInfo":{"sharedSecretKey":["x"],"periodSec":"30","verificationCodeLength":true}}"#.utf8))
    #expect(reply.totpSessionInfo?.sharedSecretKey == nil)
    #expect(reply.totpSessionInfo?.periodSec == 30)
    #expect(reply.totpSessionInfo?.verificationCodeLength == nil)
  }

  @Test func aReplyLeavesOutWhatItDoesNotHave() throws {
    var reply = SignInReply()
    reply.idToken = "t"
    reply.isNewUser = false
    #expect(String(decoding: try reply.encoded(), as: UTF8.self) == #"{"idToken":"t","isNewUser":false}"#)
  }

  @Test func theErrorEnvelopeHasFirebasesShape() throws {
    let text = String(decoding: try ErrorEnvelope(status: 400, message: "EMAIL_EXISTS").encoded(), as: UTF8.self)
    #expect(
      text
        == #"{"error":{"code":400,"errors":[{"domain":"global","message":"EMAIL_EXISTS","reason":"invalid"}],"message":"EMAIL_EXISTS"}}"#
    )
    let read = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(text.utf8))
    #expect(read.error?.message == "EMAIL_EXISTS")
    #expect(read.error?.errors?.first?.reason == "invalid")
  }

  @Test func aRefreshReplyUsesTheProtosNames() throws {
    var reply = SecureTokenReply()
    reply.idToken = "i"
    reply.userId = "u"
    reply.expiresIn = "3600"
    #expect(
      String(decoding: try reply.encoded(), as: UTF8.self) == #"{"expires_in":"3600","id_token":"i","user_id":"u"}"#)
  }
}
