import Foundation
import Testing

@testable import SignInWire

struct WireBodyTests {
  static func decode<Body: WireBody>(_ type: Body.Type, _ json: String) throws(WireError) -> Body {
    try Body.decoded(from: Data(json.utf8))
  }

  @Test func aFieldIsReadInEverySpellingFirebaseAccepts() throws {
    let body = try Self.decode(
      UpdateAccountBody.self,
      #"{"display_name":"Ada","photoURL":"https://example.com/a.png","ID_TOKEN":"t","delete-provider":["phone"]}"#)
    #expect(body.displayName == "Ada")
    #expect(body.photoUrl == "https://example.com/a.png")
    #expect(body.idToken == "t")
    #expect(body.deleteProvider == ["phone"])
    let settings = try Self.decode(
      SendOobCodeBody.self, #"{"ios_bundle_id":"com.example","continueURL":"https://e.x"}"#)
    #expect(settings.iOSBundleId == "com.example")
    #expect(settings.continueUrl == "https://e.x")
  }

  @Test func aNestedBodysFieldsAreMatchedToo() throws {
    let body = try Self.decode(
      SecondFactorBody.self,
      #"{"id_token":"t","totp_verification_info":{"session_info":"s","verification_code":"123456"}}"#)
    #expect(body.idToken == "t")
    #expect(body.totpVerificationInfo?.sessionInfo == "s")
    #expect(body.totpVerificationInfo?.verificationCode == "123456")
  }

  @Test func aValueOfTheWrongTypeIsRefusedNamingItsField() {
    #expect(throws: WireError.invalidValue(field: "email", expected: "TYPE_STRING")) {
      try Self.decode(PasswordSignInBody.self, #"{"email":5,"password":"p"}"#)
    }
    #expect(throws: WireError.invalidValue(field: "totpVerificationInfo.verificationCode", expected: "TYPE_STRING")) {
      try Self.decode(SecondFactorBody.self, #"{"totpVerificationInfo":{"verificationCode":123456}}"#)
    }
    #expect(throws: WireError.invalidValue(field: "deleteAttribute[1]", expected: "TYPE_STRING")) {
      try Self.decode(UpdateAccountBody.self, #"{"deleteAttribute":["DISPLAY_NAME",true]}"#)
    }
    #expect(throws: WireError.invalidValue(field: "returnSecureToken", expected: "TYPE_BOOL")) {
      try Self.decode(SignUpBody.self, #"{"returnSecureToken":"yes"}"#)
    }
  }

  @Test(arguments: ["", "[]", "nul", "\"text\"", "{\"email\":"])
  func aBodyThatIsNotAJSONObjectIsRefused(_ text: String) {
    #expect(throws: WireError.notAnObject) { try Self.decode(SignUpBody.self, text) }
  }

  @Test func fieldsABodyDoesNotNameAreIgnoredAsTheEmulatorIgnoresThem() throws {
    let body = try Self.decode(
      PasswordSignInBody.self,
      #"{"email":"a@example.com","password":"p","clientType":"CLIENT_TYPE_IOS","tenantId":null}"#)
    #expect(body.email == "a@example.com")
  }

  @Test func aMissingOrEmptyFieldIsNamedAsFirebaseNamesIt() {
    let body = IDTokenBody()
    #expect(throws: WireError.missing(field: "idToken")) { try body.required(body.idToken, .idToken) }
    #expect(throws: WireError.missing(field: "idToken")) { try body.required("", .idToken) }
    #expect(WireError.missing(field: "idToken").description == "MISSING_ID_TOKEN")
    #expect(WireError.missing(field: "mfaPendingCredential").description == "MISSING_MFA_PENDING_CREDENTIAL")
  }

  @Test func theClientSendsSortedKeysUnescapedSlashesAndNoAbsentFields() throws {
    var body = SendOobCodeBody()
    body.requestType = "EMAIL_SIGNIN"
    body.email = "ada@example.com"
    body.continueUrl = "https://example.com/finish"
    body.canHandleCodeInApp = true
    #expect(
      String(decoding: try body.encoded(), as: UTF8.self)
        == #"{"canHandleCodeInApp":true,"continueUrl":"https://example.com/finish","email":"ada@example.com","requestType":"EMAIL_SIGNIN"}"#
    )
    var start = SecondFactorBody()
    start.idToken = "t"
    start.totpEnrollmentInfo = EmptyBody()
    #expect(String(decoding: try start.encoded(), as: UTF8.self) == #"{"idToken":"t","totpEnrollmentInfo":{}}"#)
  }

  @Test func whatTheClientSendsTheServerReadsBack() throws {
    var signUp = SignUpBody()
    signUp.email = "ada@example.com"
    signUp.password = "correct horse"
    signUp.returnSecureToken = true
    #expect(try SignUpBody.decoded(from: signUp.encoded()) == signUp)
    var update = UpdateAccountBody()
    update.idToken = "t"
    update.photoUrl = "https://example.com/a.png"
    update.deleteAttribute = ["DISPLAY_NAME"]
    #expect(try UpdateAccountBody.decoded(from: update.encoded()) == update)
    var finalize = SecondFactorBody()
    finalize.mfaPendingCredential = "p"
    finalize.mfaEnrollmentId = "e"
    var code = TOTPVerificationInfo()
    code.verificationCode = "123456"
    finalize.totpVerificationInfo = code
    #expect(try SecondFactorBody.decoded(from: finalize.encoded()) == finalize)
  }

  @Test func aRefreshGrantIsAFormUnderTheProtosNamesAndReadInEitherSpelling() {
    let grant = RefreshGrantBody(refreshToken: "r1")
    #expect(grant.formFields.map { "\($0.0)=\($0.1)" } == ["grant_type=refresh_token", "refresh_token=r1"])
    #expect(RefreshGrantBody.decoded(form: ["grant_type": "refresh_token", "refresh_token": "r1"]) == grant)
    #expect(RefreshGrantBody.decoded(form: ["grantType": "refresh_token", "refreshToken": "r1"]) == grant)
    #expect(RefreshGrantBody.decoded(form: ["scope": "x"]) == RefreshGrantBody())
  }
}
