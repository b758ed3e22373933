// `signin`: try SignInKit from a terminal or a script, on the offline embedded backend.
import Foundation
import SignInKit
import SignInKitEmbedded
import SignInREPL

let usage = """
  usage: signin [--data-dir DIR | --in-memory] [--project ID] [--json] [-c 'COMMANDS']
    --data-dir DIR   keep accounts and the session in DIR
                     (default: $XDG_DATA_HOME/signinkit/PROJECT, or ~/.local/share/signinkit/PROJECT)
    --in-memory      keep nothing after exit
    --project ID     the project id in issued tokens (default: signinkit-local)
    --json           print one JSON object per line
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

let backend: EmbeddedBackend
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
  var configuration = try EmbeddedBackend.Configuration(trusting: [google, apple])
  configuration.projectID = project
  backend = try EmbeddedBackend(
    directory: inMemory ? nil : directory.appendingPathComponent("backend"),
    configuration: configuration)
} catch {
  fail("signin could not start: \(error)", status: 1)
}
let store: any SessionStore =
  inMemory ? InMemorySessionStore() : FileSessionStore(directory: directory.appendingPathComponent("session"))
let auth = Auth(backend: backend, store: store)
let renderer = Renderer(json: json)
let input = InputReader()
let session = REPLSession(
  auth: auth, backend: backend, google: google, apple: apple, renderer: renderer, input: input)

// One subscriber prints every state change and event as it happens.
let states = Task { for await state in auth.states { await renderer.show(state) } }
let events = Task { for await event in auth.events { await renderer.show(event) } }

var failed = false
var usageError = false
let interactive = script == nil && input.isTerminal

// Restore the previous sign-in: in the background at a terminal (the prompt is usable at once),
// before the first command in a script (so scripts are deterministic).
let restore = Task { _ = await session.run(.restore) }
if !interactive { await restore.value }

if let script {
  do {
    for command in try CommandParser.parse(line: script) {
      if command == .quit { break }
      if await !session.run(command) { failed = true }
    }
  } catch {
    await renderer.show(error)
    usageError = true
  }
} else {
  while true {
    if interactive { FileHandle.standardOutput.write(Data("signin> ".utf8)) }
    guard let line = await input.line() else { break }
    do {
      let commands = try CommandParser.parse(line: line)
      if commands.contains(.quit) { break }
      for command in commands where await !session.run(command) { failed = true }
    } catch {
      await renderer.show(error)
      usageError = true
    }
  }
}

restore.cancel()
await auth.shutdown()
await states.value
await events.value
await backend.close()
exit(usageError ? 2 : failed ? 1 : 0)
