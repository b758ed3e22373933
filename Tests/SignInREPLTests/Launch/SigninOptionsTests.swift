import Foundation
import SignInKit
import SignInREPL
import Testing

@Suite struct SigninOptionsTests {
  func options(_ arguments: [String]) throws -> SigninOptions {
    guard case .run(let options) = try SigninOptions.parse(arguments) else {
      Issue.record("\(arguments) did not ask to run")
      return SigninOptions()
    }
    return options
  }

  func problem(_ arguments: [String]) -> String? {
    do {
      _ = try SigninOptions.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func noArgumentsRunTheEmbeddedBackendOnTheLocalProject() throws {
    let parsed = try options([])
    #expect(parsed == SigninOptions())
    #expect(parsed.backend == .embedded)
    #expect(parsed.project == "signinkit-local")
    #expect(!parsed.projectGiven && !parsed.inMemory && !parsed.json)
    #expect(parsed.script == nil && parsed.latency == .zero)
  }

  @Test func everyOptionIsRead() throws {
    let parsed = try options([
      "--backend", "firebase", "--config", "/tmp/GoogleService-Info.plist", "--api-key", "KEY",
      "--project", "demo", "--data-dir", "/tmp/data", "--json", "--latency", "250", "-c",
      "anonymous; whoami", "--idp", "google.com=https://accounts.example.com,client-1",
    ])
    #expect(parsed.backend == .firebase)
    #expect(parsed.configFile?.path == "/tmp/GoogleService-Info.plist")
    #expect(parsed.apiKey == "KEY")
    #expect(parsed.project == "demo" && parsed.projectGiven)
    #expect(parsed.dataDirectory?.path == "/tmp/data")
    #expect(parsed.json)
    #expect(parsed.latency == .milliseconds(250))
    #expect(parsed.script == "anonymous; whoami")
    #expect(
      parsed.issuers == [
        .google: IssuerSettings(issuer: "https://accounts.example.com", clientID: "client-1")
      ])
  }

  @Test func anIssuerWithoutAClientIDUsesTheCLIClient() throws {
    let parsed = try options(["--idp", "apple.com=https://appleid.example.com"])
    #expect(parsed.issuers[.apple] == IssuerSettings(issuer: "https://appleid.example.com", clientID: "signinkit-cli"))
  }

  @Test func helpAndVersionWinOverTheOtherOptions() throws {
    #expect(try SigninOptions.parse(["--in-memory", "--help"]) == .help)
    #expect(try SigninOptions.parse(["-h"]) == .help)
    #expect(try SigninOptions.parse(["--json", "--version"]) == .version)
  }

  @Test(arguments: [
    (["--data-dir"], "--data-dir needs a folder."),
    (["--project"], "--project needs an id."),
    (["--project", ""], "--project needs an id."),
    (["--backend", "supabase"], "--backend needs embedded, firebase or emulator."),
    (["--backend"], "--backend needs embedded, firebase or emulator."),
    (["--config"], "--config needs a file."),
    (["--api-key", ""], "--api-key needs a key."),
    (["--latency", "soon"], "--latency needs a number of milliseconds, such as --latency 2000."),
    (["--latency", "-5"], "--latency needs a number of milliseconds, such as --latency 2000."),
    (["-c"], "-c needs commands."),
    (["--tenant"], "--tenant needs a tenant id."),
    (["--tenant", "Shop 1"], "--tenant Shop 1 is not a tenant id: lowercase letters, digits and hyphens."),
    (
      ["--app-check-secret", "k"],
      "--app-check-secret signs test tokens for a signin serve started with it: use it with --backend emulator "
        + "(production Firebase needs the app's real App Check)."
    ),
    (["--idp", "github.com=https://github.com"], "--idp needs google.com=ISSUER_URL[,CLIENT_ID] or apple.com=…."),
    (["--idp", "google.com"], "--idp needs google.com=ISSUER_URL[,CLIENT_ID] or apple.com=…."),
    (
      ["--idp", "google.com=accounts.google.com"],
      "--idp needs an issuer URL after '=', such as google.com=https://accounts.google.com."
    ),
    (["--verbose"], "Unknown option '--verbose'."),
  ])
  func aMistakeSaysWhatToChange(arguments: [String], message: String) {
    #expect(problem(arguments) == message)
  }

  @Test func aTenantAndAnAppCheckKeyAreReadForTheEmulatorAndServe() throws {
    let parsed = try options(["--backend", "emulator", "--tenant", "shop-1", "--app-check-secret", "k1"])
    #expect(parsed.tenant == "shop-1" && parsed.appCheckSecret == "k1")
    guard case .serve(let served) = try SigninOptions.parse(["serve", "--app-check-secret", "k1"]) else {
      Issue.record("serve was not parsed")
      return
    }
    #expect(served.appCheckSecret == "k1")
    #expect(throws: SigninOptions.UsageError.self) { try SigninOptions.parse(["serve", "--tenant", "shop-1"]) }
  }

  @Test func theLastOfARepeatedOptionWins() throws {
    let parsed = try options(["--backend", "emulator", "--backend", "embedded", "-c", "a", "-c", "b"])
    #expect(parsed.backend == .embedded)
    #expect(parsed.script == "b")
  }

  @Test func serveReadsItsOptionsAndAcceptsUnsignedCustomTokensAsTheEmulatorDoes() throws {
    let request = try SigninOptions.parse([
      "serve", "--port", "0", "--project", "demo", "--in-memory", "--service-account", "/tmp/a.json",
      "--service-account", "/tmp/b.json",
    ])
    guard case .serve(let served) = request else {
      Issue.record("serve did not ask to serve: \(request)")
      return
    }
    #expect(served.port == 0 && served.project == "demo" && served.inMemory)
    #expect(served.serviceAccountFiles.map(\.path) == ["/tmp/a.json", "/tmp/b.json"])
    #expect(served.acceptsUnsignedCustomTokens)
    #expect(!(try options([])).acceptsUnsignedCustomTokens)
  }

  @Test func serveHashesAtTheTestCostWithoutADataFolderAndAtFirebasesWithOne() throws {
    func cost(_ arguments: [String]) throws -> SigninOptions.HashCost? {
      guard case .serve(let served) = try SigninOptions.parse(["serve"] + arguments) else { return nil }
      return served.hashCost
    }
    #expect(try cost([]) == .test)
    #expect(try cost(["--in-memory"]) == .test)
    #expect(try cost(["--data-dir", "/tmp/d"]) == .firebase)
    #expect(try cost(["--hash-cost", "firebase"]) == .firebase)
    #expect(try cost(["--data-dir", "/tmp/d", "--hash-cost", "test"]) == .test)
    #expect(throws: SigninOptions.UsageError.self) { try SigninOptions.parse(["serve", "--hash-cost", "cheap"]) }
    #expect(throws: SigninOptions.UsageError.self) { try SigninOptions.parse(["--hash-cost", "test"]) }
    guard case .run(let run) = try SigninOptions.parse(["--in-memory"]) else { return }
    #expect(run.hashCost == .firebase)
    // What serve says matches what it uses.
    for cost in [SigninOptions.HashCost.test, .firebase] {
      #expect(cost.summary.contains("N=\(cost.parameters.n), r=\(cost.parameters.r), p=\(cost.parameters.p)"))
    }
  }

  @Test func serveReadsWhoItServesBeyondLoopback() throws {
    let request = try SigninOptions.parse([
      "serve", "--public-url", "https://auth.example.test", "--allow-origin", "http://localhost:5173",
      "--allow-origin", "https://app.example.test", "--authorized-domain", "app.example.test",
    ])
    guard case .serve(let served) = request else {
      Issue.record("serve did not ask to serve: \(request)")
      return
    }
    #expect(served.publicURL?.absoluteString == "https://auth.example.test")
    #expect(served.allowedOrigins == ["http://localhost:5173", "https://app.example.test"])
    #expect(served.authorizedDomains == ["app.example.test"])
  }

  @Test(arguments: [
    (
      ["serve", "--public-url", "auth.example.test"],
      "--public-url auth.example.test is not an http(s) URL with a host, such as https://auth.example.test."
    ),
    (["--allow-origin", "http://localhost:5173"], "Unknown option '--allow-origin'."),
    (["serve", "--service-account"], "--service-account needs a service-account key file (JSON)."),
    (["serve", "-c", "quit"], "Unknown option '-c'."),
    (["--service-account", "/tmp/a.json"], "Unknown option '--service-account'."),
    (
      ["serve", "--host", "0.0.0.0"],
      "signin serve listens on 127.0.0.1 only, so nothing off this machine can reach its accounts; use --host 127.0.0.1 (the default)."
    ),
  ])
  func aServeMistakeSaysWhatToChange(arguments: [String], message: String) {
    #expect(problem(arguments) == message)
  }
}
