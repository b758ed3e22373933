import Foundation
import SignInKit

/// What `signin`'s command line asks for, parsed without side effects so every grammar case is
/// testable in-process.
///
/// ```swift
/// switch try SigninOptions.parse(["--in-memory", "-c", "anonymous; whoami"]) {
/// case .run(let options): …   // options.inMemory == true, options.script == "anonymous; whoami"
/// case .help, .version: …
/// }
/// ```
///
/// - Concurrency: `Sendable` value.
package struct SigninOptions: Sendable, Equatable {
  /// The identity service `signin` talks to.
  package enum Backend: String, Sendable, CaseIterable {
    /// Offline, in this process, kept in the data folder.
    case embedded
    /// Firebase Authentication (`FIREBASE_AUTH_EMULATOR_HOST` is honoured).
    case firebase
    /// The Firebase Auth emulator at `FIREBASE_AUTH_EMULATOR_HOST` or `127.0.0.1:9099`.
    case emulator
  }

  /// What the command line asks `signin` to do.
  package enum Request: Sendable, Equatable {
    case run(SigninOptions)
    /// `signin serve`: the embedded backend as a Firebase Auth emulator on loopback.
    case serve(SigninOptions)
    case help
    /// `signin serve --help`: the serve part of the help.
    case serveHelp
    case version
  }

  /// The port `signin serve` listens on (the Firebase Auth emulator's); 0 picks a free one.
  package var port: UInt16 = 9099
  /// Service-account key files whose signed custom tokens the backend accepts
  /// (`--service-account`).
  package var serviceAccountFiles: [URL] = []
  /// Accept unsigned custom tokens, as the Firebase emulator does: on for `signin serve`.
  package var acceptsUnsignedCustomTokens = false
  /// Where clients reach `signin serve` when not on `http://127.0.0.1:PORT` (`--public-url`).
  package var publicURL: URL?
  /// Browser origins `signin serve` serves beyond the loopback ones (`--allow-origin`).
  package var allowedOrigins: [String] = []
  /// Domains links may continue to beyond the server's own and `localhost`
  /// (`--authorized-domain`).
  package var authorizedDomains: [String] = []
  /// The Identity Platform tenant to sign in to (`--tenant`); `nil` for the project's users.
  package var tenant: String?
  /// App Check's test key (`--app-check-secret`): `signin serve` requires tokens signed with it,
  /// and `signin --backend emulator` sends them.
  package var appCheckSecret: String?
  /// An emulator export to load at start (`signin serve --import`).
  package var importFrom: URL?
  /// Where `signin serve` writes an emulator export when it stops (`--export-on-exit`).
  package var exportOnExit: URL?

  /// A command line `signin` cannot run: the message says what to change; ``SigninOptions/usage``
  /// follows it. Exit status 2.
  package struct UsageError: Error, Equatable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
  }

  package var backend = Backend.embedded
  package var dataDirectory: URL?
  package var inMemory = false
  /// The project id; ``projectGiven`` tells whether the command line set it.
  package var project = "signinkit-local"
  package var projectGiven = false
  package var json = false
  /// Follow the data folder's session and run no commands (`--watch`).
  package var watchOnly = false
  /// Commands separated by `;` to run before exiting; `nil` reads commands from standard input.
  package var script: String?
  package var latency: Duration = .zero
  package var configFile: URL?
  package var apiKey: String?
  /// Real OpenID issuers to sign in at, by provider (`--idp`).
  package var issuers: [ProviderID: IssuerSettings] = [:]
  /// How costly new password hashes are (`--hash-cost`): Firebase's, unless `signin serve` runs
  /// without `--data-dir`, where it is the test cost.
  package var hashCost = HashCost.firebase

  /// The scrypt cost of new password hashes. Stored hashes keep their own.
  ///
  /// - Concurrency: `Sendable` value.
  package enum HashCost: String, Sendable, Equatable {
    /// `ScryptParameters.test`: cheap but real.
    case test
    /// `ScryptParameters.firebase`.
    case firebase
  }

  package init() {}

  package static let usage = """
    usage: signin [--backend embedded|firebase|emulator] [--config FILE] [--api-key KEY] [--project ID]
                  [--tenant ID] [--app-check-secret KEY] [--data-dir DIR | --in-memory] [--json]
                  [--latency MS] [-c 'COMMANDS' | --watch]
           signin serve [OPTIONS]   the embedded backend as a Firebase Auth emulator (signin serve --help)
      --backend NAME   embedded (default): offline, in this process, kept in the data folder;
                       firebase: Firebase Authentication (FIREBASE_AUTH_EMULATOR_HOST is honoured);
                       emulator: the Firebase Auth emulator at FIREBASE_AUTH_EMULATOR_HOST or 127.0.0.1:9099
      --config FILE    the Firebase project from GoogleService-Info.plist or a JSON file
                       ({"apiKey": "…", "projectId": "…"})
      --api-key KEY    the Firebase Web API key (instead of --config)
      --project ID     the project id (default: signinkit-local)
      --tenant ID      sign in to the Identity Platform tenant ID (the embedded backend keeps its users
                       in DIR/backend/accounts.sqlite, where signin serve keeps them)
      --app-check-secret KEY
                       send App Check tokens signed with KEY, for a signin serve started with it
      --idp PROVIDER=ISSUER[,CLIENT_ID[,CLIENT_SECRET]]
                       sign in with PROVIDER (google.com or apple.com) at a real OpenID issuer; the
                       embedded backend then trusts that issuer's tokens for the client id
                       (default client id: signinkit-cli; a secret only for a client that has one)
      --data-dir DIR   keep accounts and the session in DIR
                       (default: $XDG_DATA_HOME/signinkit/PROJECT, or ~/.local/share/signinkit/PROJECT)
      --in-memory      keep nothing after exit
      --json           print one JSON object per line
      --latency MS     wait MS milliseconds before each backend call, like a slow network
      -c 'COMMANDS'    run commands separated by ';' and exit; otherwise read commands from stdin
      --watch          run no commands: follow the session in the data folder and print each sign-in,
                       sign-out and refresh another signin (or an app on the same folder) makes there,
                       until Ctrl-C
    Type 'help' inside for the commands.
    """

  /// The help of `signin serve`.
  package static let serveUsage = """
    usage: signin serve [--host 127.0.0.1] [--port 9099] [--project ID] [--data-dir DIR | --in-memory]
                        [--import DIR] [--export-on-exit DIR]
                        [--service-account FILE] [--public-url URL] [--allow-origin ORIGIN]...
                        [--authorized-domain DOMAIN]... [--hash-cost test|firebase] [--app-check-secret KEY]
    Serves the embedded backend as a Firebase Auth emulator: any client that honours
    FIREBASE_AUTH_EMULATOR_HOST uses it, the Admin SDKs too. Ctrl-C (or SIGTERM) stops it.
    The banner prints the address to export and the accounts page (http://HOST/emulator/auth/accounts).
      --host ADDRESS   the address to listen on: 127.0.0.1 (or localhost) only, so nothing off
                       this machine reaches the accounts; --public-url names another for links
      --port PORT      the port on 127.0.0.1 (default 9099; 0 picks a free one)
      --project ID     the project client calls reach (default: signinkit-local); an admin or
                       /emulator call that names another project makes it, with its own accounts
      --data-dir DIR   keep the accounts in DIR (they outlive the server; default:
                       $XDG_DATA_HOME/signinkit/PROJECT, or ~/.local/share/signinkit/PROJECT, where
                       the embedded signin keeps its accounts too); --in-memory keeps nothing
      --import DIR     load the accounts and settings of a Firebase Auth emulator export (DIR, as
                       firebase emulators:export writes it, or its auth_export folder) at start
      --export-on-exit DIR
                       write the project's accounts and settings to DIR in the emulator's export
                       format when stopped (passwords as this server's hashes)
      --service-account FILE
                       accept custom tokens signed by this service account (a key file from the
                       Google Cloud console); unsigned ones are accepted too, as the emulator does
      --public-url URL where clients reach the server when not on 127.0.0.1 (links start with it)
      --allow-origin ORIGIN
                       a browser origin (scheme://host[:port]) served beyond the loopback ones;
                       requests naming another Host are refused
      --authorized-domain DOMAIN
                       a domain that emailed links may continue to
      --hash-cost test|firebase
                       the scrypt cost of new password hashes: Firebase's with --data-dir, a cheap
                       but real one without; stored hashes keep working either way
      --app-check-secret KEY
                       require an App Check token signed with KEY on every client call (a test key:
                       signin --backend emulator --app-check-secret KEY sends them)
    """

  /// Parses the arguments after the program name. `--help` and `--version` win wherever they
  /// appear before an error.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Request {
    var options = SigninOptions()
    var remaining = arguments[...]
    let serves = remaining.first == "serve"
    var hashCostGiven: HashCost?
    if serves { remaining = remaining.dropFirst() }
    func value(_ problem: String) throws(UsageError) -> String {
      guard let value = remaining.popFirst() else { throw UsageError(message: problem) }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--help", "-h": return serves ? .serveHelp : .help
      case "--version": return .version
      case "--in-memory": options.inMemory = true
      case "--json": options.json = true
      case "--watch" where !serves: options.watchOnly = true
      case "--data-dir":
        options.dataDirectory = URL(
          fileURLWithPath: try value("--data-dir needs a folder."), isDirectory: true)
      case "--project":
        let project = try value("--project needs an id.")
        guard !project.isEmpty else { throw UsageError(message: "--project needs an id.") }
        options.project = project
        options.projectGiven = true
      case "--backend":
        let problem = "--backend needs embedded, firebase or emulator."
        guard let backend = Backend(rawValue: try value(problem)) else {
          throw UsageError(message: problem)
        }
        options.backend = backend
      case "--config":
        options.configFile = URL(fileURLWithPath: try value("--config needs a file."))
      case "--api-key":
        let key = try value("--api-key needs a key.")
        guard !key.isEmpty else { throw UsageError(message: "--api-key needs a key.") }
        options.apiKey = key
      case "--idp":
        let (provider, settings) = try issuer(
          try value("--idp needs google.com=ISSUER_URL[,CLIENT_ID] or apple.com=…."))
        options.issuers[provider] = settings
      case "--latency":
        let problem = "--latency needs a number of milliseconds, such as --latency 2000."
        guard let milliseconds = Int(try value(problem)), milliseconds >= 0 else {
          throw UsageError(message: problem)
        }
        options.latency = .milliseconds(milliseconds)
      case "--tenant" where !serves:
        let tenant = try value("--tenant needs a tenant id.")
        guard !tenant.isEmpty, tenant.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
          throw UsageError(message: "--tenant \(tenant) is not a tenant id: lowercase letters, digits and hyphens.")
        }
        options.tenant = tenant
      case "--app-check-secret":
        let secret = try value("--app-check-secret needs a key (any text both sides share).")
        guard !secret.isEmpty else { throw UsageError(message: "--app-check-secret needs a key.") }
        options.appCheckSecret = secret
      case "-c" where !serves:
        options.script = try value("-c needs commands.")
      case "--port" where serves:
        let problem = "--port needs a port number from 0 to 65535 (0 picks a free one)."
        guard let port = UInt16(try value(problem)) else { throw UsageError(message: problem) }
        options.port = port
      case "--service-account" where serves:
        options.serviceAccountFiles.append(
          URL(fileURLWithPath: try value("--service-account needs a service-account key file (JSON).")))
      case "--import" where serves:
        options.importFrom = URL(
          fileURLWithPath: try value("--import needs the folder of an export (it holds auth_export/accounts.json)."),
          isDirectory: true)
      case "--export-on-exit" where serves:
        options.exportOnExit = URL(
          fileURLWithPath: try value("--export-on-exit needs a folder to write the export to."), isDirectory: true)
      case "--public-url" where serves:
        let text = try value("--public-url needs a URL, such as https://auth.example.test.")
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
          !(url.host ?? "").isEmpty
        else {
          throw UsageError(
            message: "--public-url \(text) is not an http(s) URL with a host, such as https://auth.example.test.")
        }
        options.publicURL = url
      case "--allow-origin" where serves:
        options.allowedOrigins.append(try value("--allow-origin needs an origin, such as http://localhost:5173."))
      case "--hash-cost" where serves:
        let text = try value("--hash-cost needs test or firebase.")
        guard let cost = HashCost(rawValue: text) else {
          throw UsageError(message: "--hash-cost \(text) is not test or firebase.")
        }
        hashCostGiven = cost
      case "--authorized-domain" where serves:
        options.authorizedDomains.append(try value("--authorized-domain needs a domain, such as app.example.test."))
      case "--host" where serves:
        let host = try value("--host needs an address.")
        guard ["127.0.0.1", "localhost"].contains(host) else {
          throw UsageError(
            message: "signin serve listens on 127.0.0.1 only, so nothing off this machine can reach "
              + "its accounts; use --host 127.0.0.1 (the default).")
        }
      default:
        throw UsageError(message: "Unknown option '\(argument)'.")
      }
    }
    if serves {
      guard options.backend == .embedded, options.script == nil, !options.json else {
        throw UsageError(
          message:
            "signin serve takes --host, --port, --project, --service-account, --public-url, --allow-origin, "
            + "--authorized-domain, --hash-cost, --app-check-secret, --import, --export-on-exit and --data-dir or "
            + "--in-memory.")
      }
      options.acceptsUnsignedCustomTokens = true
      options.hashCost = hashCostGiven ?? (options.dataDirectory == nil ? .test : .firebase)
      return .serve(options)
    }
    if options.watchOnly, options.script != nil || options.inMemory {
      throw UsageError(
        message: "--watch follows the session kept in the data folder and runs no commands: use it without "
          + "-c and --in-memory, and run the commands in another signin on the same --data-dir.")
    }
    if options.appCheckSecret != nil, options.backend != .emulator {
      throw UsageError(
        message: "--app-check-secret signs test tokens for a signin serve started with it: use it with "
          + "--backend emulator (production Firebase needs the app's real App Check).")
    }
    return .run(options)
  }

  /// `PROVIDER=ISSUER[,CLIENT_ID[,CLIENT_SECRET]]`.
  private static func issuer(_ text: String) throws(UsageError) -> (ProviderID, IssuerSettings) {
    let providers: [String: ProviderID] = ["google.com": .google, "apple.com": .apple]
    guard let equals = text.firstIndex(of: "="), let provider = providers[String(text[..<equals])]
    else {
      throw UsageError(message: "--idp needs google.com=ISSUER_URL[,CLIENT_ID] or apple.com=….")
    }
    let parts = text[text.index(after: equals)...].split(separator: ",", maxSplits: 2).map(String.init)
    guard let issuer = parts.first, issuer.hasPrefix("http") else {
      throw UsageError(
        message:
          "--idp needs an issuer URL after '=', such as google.com=https://accounts.google.com.")
    }
    return (
      provider,
      IssuerSettings(
        issuer: issuer, clientID: parts.count > 1 ? parts[1] : "signinkit-cli",
        clientSecret: parts.count > 2 ? parts[2] : nil)
    )
  }
}
