// `signin-quickstart`: SignInKit the way the README shows it. The ServiceInfoPlugin checked
// this target's GoogleService-Info.plist at build time and generated
// `FirebaseConfiguration.serviceInfo`; the sign-in itself runs offline on the embedded backend.
// It prints the same lines on every run: states are read where the flow is, and the events
// that arrived meanwhile are printed once `auth` has shut down.
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
// Subscribed before anything happens: every event from here on, in order and none dropped (its
// buffer holds far more than this run makes). The stream ends when `auth` shuts down.
let events = auth.events
let log = Task {
  var lines: [String] = []
  for await event in events { lines.append("event: \(event)") }
  return lines
}

if try await auth.restorePreviousSignIn() == nil {
  _ = try await auth.signUp(email: "ada@example.com", password: "correct horse battery")
}
// Persist first, publish second: once the call returns, the state says so.
print("state:", auth.currentState)
let token = try await auth.idToken()
print("ID token: \(token.count) characters")
try await auth.signOut()
print("state:", auth.currentState)
await auth.shutdown()
for line in await log.value { print(line) }
print("done")
