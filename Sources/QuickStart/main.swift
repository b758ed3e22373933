// `signin-quickstart`: SignInKit the way the README shows it. The ServiceInfoPlugin checked
// this target's GoogleService-Info.plist at build time and generated
// `FirebaseConfiguration.serviceInfo`; the sign-in itself runs offline on the embedded backend.
import Foundation
import SignInKit
import SignInKitEmbedded

let firebase = FirebaseConfiguration.serviceInfo
print("Firebase project from GoogleService-Info.plist: \(firebase.projectID) (app \(firebase.appID ?? "?"))")
print("Google URL scheme: \(SignInConfiguration.reversedClientID ?? "none")")
// Production signs in with Firebase; this quick start only builds the backend, then signs in
// offline below.
// snippet.begin production-backend
let production = try FirebaseBackend(configuration: .serviceInfo)
// snippet.end
print("Firebase backend for project \(production.projectID)")

let backend = try EmbeddedBackend(directory: nil)
let auth = Auth(backend: backend, store: InMemorySessionStore())
let watcher = Task { for await state in auth.states { print("state:", state) } }

if try await auth.restorePreviousSignIn() == nil {
  _ = try await auth.signUp(email: "ada@example.com", password: "correct horse battery")
}
let token = try await auth.idToken()
print("ID token: \(token.count) characters")
try await auth.signOut()
watcher.cancel()
await auth.shutdown()
print("done")
