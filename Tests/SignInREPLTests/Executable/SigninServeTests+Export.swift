import Foundation
import SignInKit
import Testing

/// `signin serve --import` and `--export-on-exit` in the Firebase Auth emulator's export format:
/// an export written as the emulator writes it (`auth_export/accounts.json` with its
/// `fakeHash:salt=…:password=…` passwords, `config.json`) loads, its users sign in, and what the
/// server exports loads again with the same passwords.
extension SigninServeTests {
  static let seedAccounts = """
    {"kind":"identitytoolkit#DownloadAccountResponse","users":[
      {"localId":"ada-uid","email":"ada@example.com","emailVerified":true,"displayName":"Ada",
       "salt":"fakeSaltAda","passwordHash":"fakeHash:salt=fakeSaltAda:password=correct horse",
       "passwordUpdatedAt":1700000000000,"validSince":"1700000000","createdAt":"1700000000000",
       "lastLoginAt":"1700000500000","customAttributes":"{\\"role\\":\\"admin\\"}",
       "providerUserInfo":[{"providerId":"password","email":"ada@example.com","federatedId":"ada@example.com",
         "rawId":"ada@example.com"}]},
      {"localId":"grace-uid","email":"grace@example.com","emailVerified":true,"createdAt":"1700000000000",
       "providerUserInfo":[{"providerId":"google.com","email":"grace@example.com","federatedId":"1234",
         "rawId":"1234","displayName":"Grace"}]}
    ]}
    """

  @Test func importsAnEmulatorExportAndWritesOneTheNextImportReads() async throws {
    let scratch = SigninProcessTests.Scratch()
    let seed = scratch.url.appendingPathComponent("seed")
    let out = scratch.url.appendingPathComponent("out")
    try FileManager.default.createDirectory(
      at: seed.appendingPathComponent("auth_export"), withIntermediateDirectories: true)
    try Data(Self.seedAccounts.utf8).write(to: seed.appendingPathComponent("auth_export/accounts.json"))
    try Data(
      #"{"signIn":{"allowDuplicateEmails":false},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#.utf8
    )
    .write(to: seed.appendingPathComponent("auth_export/config.json"))
    try Data(#"{"version":"13.0.0","auth":{"version":"13.0.0","path":"auth_export"}}"#.utf8)
      .write(to: seed.appendingPathComponent("firebase-export-metadata.json"))

    let server = try await Server(
      ["--in-memory", "--project", "demo", "--import", seed.path, "--export-on-exit", out.path])
    let client = try FirebaseBackend.emulator(host: server.host, projectID: "demo")
    let auth = Auth(backend: client, store: InMemorySessionStore())
    let ada = try await auth.signIn(email: "ada@example.com", password: "correct horse")
    #expect(ada.user.uid == "ada-uid" && ada.user.displayName == "Ada" && ada.user.emailVerified)
    #expect(try await auth.idTokenResult().claims["role"] == .string("admin"))
    let methods = try await client.lookup(LookupRequest(idToken: try await auth.idToken()))
    #expect(methods.user.providers.map(\.providerID) == [.password])
    let (status, rest) = try await server.stop()
    #expect(status == 0, "\(rest)")
    let log = server.opening + rest
    #expect(log.contains("Imported 2 accounts from \(seed.path)"), "\(log)")
    #expect(log.contains("Exported 2 accounts to \(out.path)"), "\(log)")

    let exported = try String(contentsOf: out.appendingPathComponent("auth_export/accounts.json"), encoding: .utf8)
    #expect(exported.contains(#""passwordHash":"signinkitHash:"#) && !exported.contains("correct horse"))
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("auth_export/config.json").path))

    let again = try await Server(["--in-memory", "--project", "demo", "--import", out.path])
    let reopened = try FirebaseBackend.emulator(host: again.host, projectID: "demo")
    let signedIn = try await reopened.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
    #expect(signedIn.localID == "ada-uid")
    _ = try await again.stop()
  }

  /// A tenant's accounts (`accounts-TENANT.json`) and an SMS second factor (the emulator's
  /// `unobfuscatedPhoneInfo`) load, are listed as the emulator's hub asks for an export
  /// (`batchGet?maxResults=-1&tenantId=…`), and come back from the server's own export.
  @Test func aTenantsAccountsAndASecondFactorRoundTrip() async throws {
    let scratch = SigninProcessTests.Scratch()
    let seed = scratch.url.appendingPathComponent("seed/auth_export")
    let out = scratch.url.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: seed, withIntermediateDirectories: true)
    try Data(
      #"""
      {"kind":"identitytoolkit#DownloadAccountResponse","users":[
        {"localId":"ada-uid","email":"ada@example.com","emailVerified":true,
         "passwordHash":"fakeHash:salt=s:password=correct horse","createdAt":"1700000000000",
         "mfaInfo":[{"mfaEnrollmentId":"work-phone","displayName":"Work","phoneInfo":"+1*******0123",
           "unobfuscatedPhoneInfo":"+15555550123","enrolledAt":"2024-01-02T03:04:05.000Z"}]}]}
      """#.utf8
    ).write(to: seed.appendingPathComponent("accounts.json"))
    try Data(
      #"""
      {"kind":"identitytoolkit#DownloadAccountResponse","users":[
        {"localId":"grace-uid","email":"grace@example.com","passwordHash":"fakeHash:salt=s:password=tenant horse"}]}
      """#.utf8
    ).write(to: seed.appendingPathComponent("accounts-acme-x1y2.json"))

    let server = try await Server(
      ["--in-memory", "--project", "demo", "--import", seed.path, "--export-on-exit", out.path])
    try await Self.expectRoundTripped(at: server.host)
    let listed = try await Self.admin(
      "GET", server.host,
      "/identitytoolkit.googleapis.com/v1/projects/demo/accounts:batchGet?maxResults=-1&tenantId=acme-x1y2", nil)
    #expect(
      (listed["users"] as? [[String: Any]])?.compactMap { $0["localId"] as? String } == ["grace-uid"], "\(listed)")
    let (status, rest) = try await server.stop()
    #expect(status == 0, "\(rest)")
    #expect((server.opening + rest).contains("Imported 2 accounts from \(seed.path)"), "\(server.opening + rest)")

    let exported = out.appendingPathComponent("auth_export")
    let project = try String(contentsOf: exported.appendingPathComponent("accounts.json"), encoding: .utf8)
    #expect(project.contains(#""unobfuscatedPhoneInfo":"+15555550123""#), "\(project)")
    #expect(FileManager.default.fileExists(atPath: exported.appendingPathComponent("accounts-acme-x1y2.json").path))
    let again = try await Server(["--in-memory", "--project", "demo", "--import", out.path])
    try await Self.expectRoundTripped(at: again.host)
    _ = try await again.stop()
  }

  /// Ada's password sign-in asks for her work phone; Grace signs in at her tenant.
  static func expectRoundTripped(at host: String) async throws {
    let project = try FirebaseBackend.emulator(host: host, projectID: "demo")
    let asked = await #expect(throws: AuthError.self) {
      _ = try await Auth(backend: project, store: InMemorySessionStore())
        .signIn(email: "ada@example.com", password: "correct horse")
    }
    let factor = asked?.secondFactor?.factors.first
    #expect(factor?.displayName == "Work" && factor?.kind == .phone && factor?.enrollmentID == "work-phone")
    var tenant = project
    tenant.tenantID = "acme-x1y2"
    let grace = try await tenant.signInWithPassword(
      PasswordSignInRequest(email: "grace@example.com", password: "tenant horse"))
    #expect(grace.localID == "grace-uid")
  }

  @Test func anImportThatIsNotAnExportSaysWhatToGive() async throws {
    let scratch = SigninProcessTests.Scratch()
    let run = try await SigninProcessTests.signin(["serve", "--in-memory", "--port", "0", "--import", scratch.url.path])
    #expect(run.status == 2, "\(run.output)")
    #expect(run.output.contains("No accounts.json in \(scratch.url.path)"))
  }
}
