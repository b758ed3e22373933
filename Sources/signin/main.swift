// `signin`: try SignInKit from a terminal or a script: on the offline embedded backend by
// default, or on Firebase Authentication (production or the emulator).
import Foundation
import SignInKit
import SignInKitEmbedded
import SignInREPL

let usage = """
  usage: signin [--backend embedded|firebase|emulator] [--config FILE] [--api-key KEY] [--project ID]
                [--data-dir DIR | --in-memory] [--json] [--latency MS] [-c 'COMMANDS']
    --backend NAME   embedded (default): offline, in this process, kept in the data folder;
                     firebase: Firebase Authentication (FIREBASE_AUTH_EMULATOR_HOST is honoured);
                     emulator: the Firebase Auth emulator at FIREBASE_AUTH_EMULATOR_HOST or 127.0.0.1:9099
    --config FILE    the Firebase project from GoogleService-Info.plist or a JSON file
                     ({"apiKey": "…", "projectId": "…"})
    --api-key KEY    the Firebase Web API key (instead of --config)
    --project ID     the project id (default: signinkit-local)
    --idp PROVIDER=ISSUER[,CLIENT_ID]
                     sign in with PROVIDER (google.com or apple.com) at a real OpenID issuer; the
                     embedded backend then trusts that issuer's tokens for the client id
                     (default client id: signinkit-cli)
    --data-dir DIR   keep accounts and the session in DIR
                     (default: $XDG_DATA_HOME/signinkit/PROJECT, or ~/.local/share/signinkit/PROJECT)
    --in-memory      keep nothing after exit
    --json           print one JSON object per line
    --latency MS     wait MS milliseconds before each backend call, like a slow network
    -c 'COMMANDS'    run commands separated by ';' and exit; otherwise read commands from stdin
  Type 'help' inside for the commands.
  """

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(status)
}

var arguments = CommandLine.arguments.dropFirst()
var dataDirectory: URL?
var inMemory = false
var project = "signinkit-local"
var json = false
var script: String?
var latency: Duration = .zero
var backendName = "embedded"
var configFile: URL?
var apiKey: String?
var projectGiven = false
var issuers: [ProviderID: IssuerSettings] = [:]
while let argument = arguments.popFirst() {
  switch argument {
  case "--help", "-h": print(usage); exit(0)
  case "--version": print("signin 0.1.0 (SignInKit)"); exit(0)
  case "--in-memory": inMemory = true
  case "--json": json = true
  case "--data-dir":
    guard let value = arguments.popFirst() else { fail("--data-dir needs a folder.\n\(usage)", status: 2) }
    dataDirectory = URL(fileURLWithPath: value, isDirectory: true)
  case "--project":
    guard let value = arguments.popFirst(), !value.isEmpty else { fail("--project needs an id.\n\(usage)", status: 2) }
    project = value
    projectGiven = true
  case "--backend":
    guard let value = arguments.popFirst(), ["embedded", "firebase", "emulator"].contains(value) else {
      fail("--backend needs embedded, firebase or emulator.\n\(usage)", status: 2)
    }
    backendName = value
  case "--config":
    guard let value = arguments.popFirst() else { fail("--config needs a file.\n\(usage)", status: 2) }
    configFile = URL(fileURLWithPath: value)
  case "--api-key":
    guard let value = arguments.popFirst(), !value.isEmpty else { fail("--api-key needs a key.\n\(usage)", status: 2) }
    apiKey = value
  case "--idp":
    guard let value = arguments.popFirst(), let equals = value.firstIndex(of: "="),
      let provider = ["google.com": ProviderID.google, "apple.com": .apple][String(value[..<equals])]
    else { fail("--idp needs google.com=ISSUER_URL[,CLIENT_ID] or apple.com=….\n\(usage)", status: 2) }
    let parts = value[value.index(after: equals)...].split(separator: ",", maxSplits: 1).map(String.init)
    guard let issuer = parts.first, issuer.hasPrefix("http") else {
      fail("--idp needs an issuer URL after '=', such as google.com=https://accounts.google.com.\n\(usage)", status: 2)
    }
    issuers[provider] = IssuerSettings(issuer: issuer, clientID: parts.count > 1 ? parts[1] : "signinkit-cli")
  case "--latency":
    guard let value = arguments.popFirst(), let milliseconds = Int(value), milliseconds >= 0 else {
      fail("--latency needs a number of milliseconds, such as --latency 2000.\n\(usage)", status: 2)
    }
    latency = .milliseconds(milliseconds)
  case "-c":
    guard let value = arguments.popFirst() else { fail("-c needs commands.\n\(usage)", status: 2) }
    script = value
  default:
    fail("Unknown option '\(argument)'.\n\(usage)", status: 2)
  }
}

let environment = ProcessInfo.processInfo.environment
let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
  ?? (NSHomeDirectory() + "/.local/share")
let directory = dataDirectory
  ?? URL(fileURLWithPath: dataHome, isDirectory: true).appendingPathComponent("signinkit/\(project)")

let backend: REPLBackend
let google: EmbeddedIdentityProvider
let apple: EmbeddedIdentityProvider
do {
  // Keys live beside the accounts so that start-up does not generate RSA keys every time.
  let keys = inMemory ? nil : directory.appendingPathComponent("idp")
  if let keys {
    try FileManager.default.createDirectory(
      at: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }
  google = try .google(keyFile: keys?.appendingPathComponent("google-key.pem"))
  apple = try .apple(keyFile: keys?.appendingPathComponent("apple-key.pem"))
  switch backendName {
  case "firebase":
    var firebase = try configFile.map(FirebaseConfiguration.init(contentsOf:))
    if let apiKey {
      if firebase == nil { firebase = FirebaseConfiguration(apiKey: apiKey, projectID: "") }
      firebase?.apiKey = apiKey
    }
    if projectGiven { firebase?.projectID = project }
    guard let firebase, !firebase.projectID.isEmpty else {
      fail("--backend firebase needs --config FILE, or --api-key KEY and --project ID.\n\(usage)", status: 2)
    }
    backend = .firebase(try FirebaseBackend(configuration: firebase))
  case "emulator":
    let host = environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:9099"
    backend = .firebase(try .emulator(host: host, projectID: project, apiKey: apiKey ?? "fake-api-key"))
  default:
    var configuration = try EmbeddedBackend.Configuration(trusting: [google, apple])
    configuration.projectID = project
    for (provider, settings) in issuers {
      configuration.identityProviders[provider] = try await .discover(
        issuer: settings.issuer, clientIDs: [settings.clientID])
    }
    backend = .embedded(
      try EmbeddedBackend(
        directory: inMemory ? nil : directory.appendingPathComponent("backend"), configuration: configuration))
  }
} catch let error as AuthError where error.code == .misconfigured {
  fail(error.message, status: 2)
} catch {
  fail("signin could not start: \(error)", status: 1)
}
let store: any SessionStore =
  inMemory ? InMemorySessionStore() : FileSessionStore(directory: directory.appendingPathComponent("session"))
let auth = Auth(backend: latency > .zero ? DelayedBackend(backend.auth, delay: latency) : backend.auth, store: store)
let renderer = Renderer(json: json, style: .forStandardOutput(environment: environment))

// At a terminal, keys are read raw for the line editor; the terminal is put back at exit.
let terminal = TerminalMode.raw(STDIN_FILENO)
let keyboard = KeyboardInput()
let terminalInput: TerminalInput?
if terminal != nil {
  keyboard.startReading(from: STDIN_FILENO)
  terminalInput = TerminalInput(
    keyboard: keyboard, renderer: renderer,
    history: CommandHistory(file: CommandHistory.defaultFile(environment: environment)),
    columns: { TerminalMode.columns(of: STDOUT_FILENO) },
    knownEmails: { await backend.knownEmails() })
} else {
  terminalInput = nil
}
let pipeInput = PipeInput()
let session = REPLSession(
  auth: auth, backend: backend, google: google, apple: apple, renderer: renderer,
  input: terminalInput ?? pipeInput, issuers: issuers,
  googleRefreshTokenFile: inMemory ? nil : directory.appendingPathComponent("idp/google-refresh-token"))

// SIGINT (kill -INT; at the terminal Ctrl-C arrives as a key) cancels the command in flight;
// SIGTERM and SIGHUP put the terminal back before leaving.
var signalSources: [any DispatchSourceSignal] = []
let interrupt: @Sendable () -> Void = { [keyboard] in keyboard.interrupt() }
let leave: @Sendable (Int32) -> Void = { [terminal] status in
  terminal?.restore()
  exit(status)
}
for (number, action) in [
  (SIGINT, interrupt), (SIGTERM, { @Sendable [leave] in leave(143) }),
  (SIGHUP, { @Sendable [leave] in leave(129) }),
] as [(Int32, @Sendable () -> Void)] {
  signal(number, SIG_IGN)
  let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
  source.setEventHandler(handler: action)
  source.resume()
  signalSources.append(source)
}

// One subscriber prints every state change and event as it happens.
let states = Task { for await state in auth.states { await renderer.show(state) } }
let events = Task { for await event in auth.events { await renderer.show(event) } }

// Restore the previous sign-in: in the background at an interactive prompt (usable at once),
// before the first command otherwise, so scripts are deterministic.
let interactive = script == nil && terminalInput != nil
let restore = Task { _ = await session.run(.restore) }
if !interactive { await restore.value }

let status: ExitStatus
if let script {
  status = await ScriptLoop(session: session, renderer: renderer).run(script: script)
} else if let terminalInput {
  status = await TerminalLoop(session: session, renderer: renderer, input: terminalInput, keyboard: keyboard).run()
} else {
  status = await ScriptLoop(session: session, renderer: renderer).run(lines: pipeInput)
}

restore.cancel()
await auth.shutdown()
await states.value
await events.value
await backend.close()
terminal?.restore()
exit(status.code)
