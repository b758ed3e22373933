import Foundation
import Testing

@testable import SignInWire

struct WireBodyTests {
  static func decode<Body: WireBody>(_ type: Body.Type, _ json: String) throws(FirebaseFailure) -> Body {
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
      FinalizeMfaEnrollmentBody.self,
      #"{"id_token":"t","totp_verification_info":{"session_info":"s","verification_code":"123456"}}"#)
    #expect(body.idToken == "t")
    #expect(body.totpVerificationInfo?.sessionInfo == "s")
    #expect(body.totpVerificationInfo?.verificationCode == "123456")
  }

  @Test func aValueOfTheWrongTypeIsRefusedNamingItsField() {
    #expect(throws: FirebaseFailure.invalidValue(field: "email", expected: "TYPE_STRING")) {
      try Self.decode(PasswordSignInBody.self, #"{"email":5,"password":"p"}"#)
    }
    #expect(
      throws: FirebaseFailure.invalidValue(field: "totpVerificationInfo.verificationCode", expected: "TYPE_STRING")
    ) {
      try Self.decode(FinalizeMfaSignInBody.self, #"{"totpVerificationInfo":{"verificationCode":123456}}"#)
    }
    #expect(throws: FirebaseFailure.invalidValue(field: "deleteProvider[1]", expected: "TYPE_STRING")) {
      try Self.decode(UpdateAccountBody.self, #"{"deleteProvider":["phone",true]}"#)
    }
    #expect(throws: FirebaseFailure.invalidValue(field: "returnSecureToken", expected: "TYPE_BOOL")) {
      try Self.decode(SignUpBody.self, #"{"returnSecureToken":"yes"}"#)
    }
  }

  @Test(arguments: ["", "[]", "nul", "\"text\"", "{\"email\":"])
  func aBodyThatIsNotAJSONObjectIsRefused(_ text: String) {
    #expect(throws: FirebaseFailure.notAnObject) { try Self.decode(SignUpBody.self, text) }
  }

  @Test func fieldsABodyDoesNotNameAreIgnoredAsTheEmulatorIgnoresThem() throws {
    let body = try Self.decode(
      PasswordSignInBody.self,
      #"{"email":"a@example.com","password":"p","clientType":"CLIENT_TYPE_IOS","tenantId":null}"#)
    #expect(body.email == "a@example.com")
  }

  @Test func aMissingOrEmptyFieldIsRefusedWithTheCodeTheCallNames() {
    let body = LookupBody()
    #expect(throws: FirebaseFailure(.missingIdToken)) { try body.required(body.idToken, .missingIdToken) }
    #expect(throws: FirebaseFailure(.missingIdToken)) { try body.required("", .missingIdToken) }
    #expect(FirebaseFailure(.missingIdToken).message == "MISSING_ID_TOKEN")
    #expect(throws: FirebaseFailure(.missingMfaPendingCredential)) {
      try FinalizeMfaSignInBody().required(FinalizeMfaSignInBody().mfaPendingCredential, .missingMfaPendingCredential)
    }
  }

  @Test func aProtoEnumIsReadByItsNameOrNumberAndAnythingElseIsRefusedNamingTheField() throws {
    #expect(try Self.decode(SendOobCodeBody.self, #"{"requestType":"EMAIL_SIGNIN"}"#).requestType == .emailSignIn)
    #expect(try Self.decode(SendOobCodeBody.self, #"{"requestType":6}"#).requestType == .emailSignIn)
    #expect(try Self.decode(RevokeTokenBody.self, #"{"tokenType":"3"}"#).tokenType == .code)
    let error = #expect(throws: FirebaseFailure.self) {
      try Self.decode(SendOobCodeBody.self, #"{"requestType":"SEND_MONEY"}"#)
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.detail?.contains("'requestType'") == true)
    #expect(error?.detail?.contains("PASSWORD_RESET") == true)
  }

  @Test func theClientSendsSortedKeysUnescapedSlashesAndNoAbsentFields() throws {
    var body = SendOobCodeBody()
    body.requestType = .emailSignIn
    body.email = "ada@example.com"
    body.continueUrl = "https://example.com/finish"
    body.canHandleCodeInApp = true
    #expect(
      String(decoding: try body.encoded(), as: UTF8.self)
        == #"{"canHandleCodeInApp":true,"continueUrl":"https://example.com/finish","email":"ada@example.com","requestType":"EMAIL_SIGNIN"}"#
    )
    var start = StartMfaEnrollmentBody()
    start.idToken = "t"
    start.totpEnrollmentInfo = NoBody()
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
    update.deleteAttribute = [.displayName]
    #expect(try UpdateAccountBody.decoded(from: update.encoded()) == update)
    var finalize = FinalizeMfaSignInBody()
    finalize.mfaPendingCredential = "p"
    finalize.mfaEnrollmentId = "e"
    finalize.totpVerificationInfo = TOTPSignInInfo(verificationCode: "123456")
    #expect(try FinalizeMfaSignInBody.decoded(from: finalize.encoded()) == finalize)
  }

  @Test func aRefreshGrantIsAFormUnderTheProtosNamesAndReadInEitherSpelling() throws {
    let grant = RefreshGrantBody(refreshToken: "r+1/=")
    #expect(
      String(decoding: try grant.formEncoded(), as: UTF8.self) == "grant_type=refresh_token&refresh_token=r%2B1%2F%3D")
    #expect(
      try RefreshGrantBody.decoded(form: Data("grant_type=refresh_token&refresh_token=r%2B1%2F%3D".utf8)) == grant)
    #expect(try RefreshGrantBody.decoded(form: Data("grantType=refresh_token&refreshToken=r%2B1%2F%3D".utf8)) == grant)
    #expect(try RefreshGrantBody.decoded(form: Data("scope=x".utf8)) == RefreshGrantBody())
  }

  @Test func queryFieldsTravelInTheQueryAndAreReadBackFromIt() throws {
    var acme = Tenant()
    acme.displayName = "Acme"
    let update = ResourceUpdate(acme, updateMask: "displayName")
    #expect(String(decoding: try update.encoded(), as: UTF8.self) == #"{"displayName":"Acme"}"#)
    #expect(try update.queryItems().map { "\($0.name)=\($0.value)" } == ["updateMask=displayName"])
    #expect(
      try ResourceUpdate<Tenant>.decoded(from: update.encoded(), query: ["updateMask": "displayName", "key": "k"])
        == update)
    var page = PageQuery()
    page.pageSize = "5"
    #expect(try PageQuery.decoded(from: Data(), query: ["pageSize": "5"]) == page)
  }
}
