import Testing

@testable import SignInWire

struct PathTemplateTests {
  @Test func aTemplateMatchesItsShapeAndNamesThePlaceholders() {
    let template = PathTemplate(
      "/identitytoolkit.googleapis.com/v1/projects/{project}/tenants/{tenant}/accounts:lookup")
    #expect(
      template.match("/identitytoolkit.googleapis.com/v1/projects/p-1/tenants/t-2/accounts:lookup")
        == ["project": "p-1", "tenant": "t-2"])
    #expect(template.match("/identitytoolkit.googleapis.com/v1/projects/p-1/accounts:lookup") == nil)
    #expect(template.match("/identitytoolkit.googleapis.com/v1/projects//tenants/t/accounts:lookup") == nil)
    #expect(template.match("/identitytoolkit.googleapis.com/v1/projects/p/tenants/t/accounts:lookup/x") == nil)
  }

  @Test func aPlaceholderStopsAtASlashOrAColon() {
    let session = PathTemplate("v1/projects/{project}:createSessionCookie")
    #expect(session.match("v1/projects/demo:createSessionCookie") == ["project": "demo"])
    #expect(PathTemplate("v1/projects/{project}/accounts").match("v1/projects/a:b/accounts") == nil)
  }

  @Test func theClientFillsThePlaceholdersPercentEncoded() {
    #expect(
      PathTemplate("emulator/v1/projects/{project}/oobCodes").filled(["project": "a b"])
        == "emulator/v1/projects/a%20b/oobCodes")
    #expect(PathTemplate("v1/accounts:signUp").isLiteral)
  }

  @Test func theIdpPostBodyIsWrittenAndReadInOnePlace() {
    var body = IdpPostBody()
    body.providerId = "apple.com"
    body.idToken = "header.pay+load.sig"
    body.nonce = "raw nonce/1"
    body.user = IdpPostBody.AppleUser(firstName: "Ada", lastName: nil)
    #expect(
      body.encoded
        == "id_token=header.pay%2Bload.sig&providerId=apple.com&nonce=raw%20nonce%2F1&user=%7B%22name%22%3A%7B%22firstName%22%3A%22Ada%22%7D%7D"
    )
    #expect(IdpPostBody(form: body.encoded) == body)
    #expect(IdpPostBody(form: "providerId=x&user=not-json").user == nil)
  }
}
