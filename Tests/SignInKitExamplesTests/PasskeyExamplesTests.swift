import Foundation
import SignInKit
import SignInKitEmbedded
import SignInKitExamples
import SignInKitTesting
import Testing

/// The passkeys article's examples, with the development authenticator standing in for the
/// platform's.
@Suite(.timeLimit(.minutes(3)))
@MainActor struct PasskeyExamplesTests {
  // snippet.begin passkey-embedded
  @Test func aPasskeyOfTheAppsDomainSignsInOnTheEmbeddedBackend() async throws {
    // The relying party is the app's associated domain; the development authenticator plays
    // a device of that domain.
    var configuration = EmbeddedBackend.Configuration()
    configuration.passkeys = PasskeyPolicy(relyingPartyID: "example.com")
    let backend = try EmbeddedBackend(directory: nil, configuration: configuration)
    let auth = Auth(backend: backend, store: InMemorySessionStore())
    let device = try DevelopmentPasskeyAuthenticator(directory: nil)

    let signedUp = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.enrollPasskey(named: "iPhone", using: device)
    try await auth.signOut()
    let signedIn = try await auth.signInWithPasskey(using: device)
    #expect(signedIn.user.uid == signedUp.user.uid)
    #expect(await device.passkeys(for: "example.com").count == 1)
  }
  // snippet.end

  @Test func theSettingsScreenAddsListsAndRemoves() async throws {
    let auth = Auth(backend: ScriptedBackend(), store: InMemorySessionStore())
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    let settings = PasskeySettings(auth: auth, authenticator: try DevelopmentPasskeyAuthenticator(directory: nil))
    await settings.addPasskey(named: "Laptop")
    #expect(settings.passkeys.map(\.name) == ["Laptop"])
    await settings.remove(try #require(settings.passkeys.first))
    #expect(settings.passkeys.isEmpty)
    #expect(settings.message?.hasPrefix("Removed Laptop") == true)
  }
}
