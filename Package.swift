// swift-tools-version:6.2
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

// OpenSSL's libcrypto backs SignInCrypto on Linux, and on macOS when Homebrew's openssl@3 is
// installed; elsewhere CryptoKit and Security do (SignInCrypto/Crypto/CryptoBackend.swift).
let homebrewOpenSSL = ["/opt/homebrew/opt/openssl@3", "/usr/local/opt/openssl@3"]
  .contains { FileManager.default.fileExists(atPath: $0) }
let openSSLPlatforms: [Platform] = homebrewOpenSSL ? [.linux, .macOS] : [.linux]

let package = Package(
  name: "SignInKit",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    // Each product carries what its name says: an app that only wants FirebaseBackend links
    // SignInKit alone; the embedded backend is a product of its own; the emulator behind
    // `signin serve` is no product at all (SignInEmulator).
    .library(name: "SignInKit", targets: ["SignInKit"]),
    .library(name: "SignInKitTesting", targets: ["SignInKitTesting"]),
    .library(name: "SignInKitEmbedded", targets: ["SignInKitEmbedded"]),
    .library(name: "SignInKitFlows", targets: ["SignInKitFlows"]),
    // SwiftUI screens over SignInKitFlows, for Apple platforms (empty elsewhere).
    .library(name: "SignInKitUI", targets: ["SignInKitUI"]),
    .plugin(name: "ServiceInfoPlugin", targets: ["ServiceInfoPlugin"]),
    .plugin(name: "SignInDoctor", targets: ["SignInDoctor"]),
  ],
  dependencies: [],
  targets: [
    .systemLibrary(
      name: "CLibcrypto", pkgConfig: "openssl",
      providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
    // SQLite's and libxcrypt's headers, Linux only; neither library is linked. Each is opened
    // when first needed (SharedLibrary), so a process that never opens the embedded backend's
    // accounts or checks an imported bcrypt hash never loads it. A missing header says what to
    // install.
    .systemLibrary(name: "CSQLite"),
    .systemLibrary(name: "CCrypt"),
    // The C library's `environ`, through a function (ProcessEnvironment): no library to link.
    .systemLibrary(name: "CEnvironment"),
    // SignInKit's layers, lowest first. Internal targets (not products): the compiler keeps each
    // one from reaching up.
    .target(name: "SignInConcurrency", swiftSettings: strict),
    // JSON values and crash-safe files, for every layer above.
    .target(
      name: "SignInFoundation",
      dependencies: ["SignInConcurrency", .target(name: "CEnvironment", condition: .when(platforms: [.linux]))],
      swiftSettings: strict),
    .target(
      name: "SignInCrypto",
      dependencies: [
        "SignInConcurrency", "SignInFoundation",
        .target(name: "CLibcrypto", condition: .when(platforms: openSSLPlatforms)),
        .target(name: "CCrypt", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: strict),
    .target(name: "SignInHTTP", dependencies: ["SignInConcurrency"], swiftSettings: strict),
    // SQLite, behind one seam: the SDK's SQLite3 on Apple platforms, libsqlite3 elsewhere.
    .target(
      name: "SignInStorage",
      dependencies: ["SignInFoundation", .target(name: "CSQLite", condition: .when(platforms: [.linux, .android]))],
      swiftSettings: strict),
    // The Firebase Auth REST bodies, written once for FirebaseBackend and the emulator routes.
    .target(name: "SignInWire", swiftSettings: strict),
    // Each product that ships in apps carries Apple's privacy manifest (PrivacyInfo.xcprivacy):
    // the required-reason APIs its code calls and the data it handles (PrivacyManifestTests).
    .target(
      name: "SignInKit",
      dependencies: ["SignInConcurrency", "SignInFoundation", "SignInCrypto", "SignInHTTP", "SignInWire"],
      resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strict),
    .target(
      name: "SignInKitTesting",
      dependencies: [
        "SignInKit", "SignInKitEmbedded", "SignInConcurrency", "SignInCrypto", "SignInFoundation", "SignInHTTP",
      ],
      swiftSettings: strict),
    .target(
      name: "SignInKitEmbedded",
      dependencies: [
        "SignInKit", "SignInConcurrency", "SignInFoundation", "SignInCrypto", "SignInHTTP", "SignInStorage",
        "SignInWire",
      ],
      resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strict),
    // The Firebase Auth emulator behind `signin serve`, HTTP only: a route table that decodes the
    // wire layer's bodies and hands them to SignInKitEmbedded's identity service, on the HTTP
    // layer's server, and its web pages. Used by `signin`, the bench and the tests; no product
    // ships it, so no app links an HTTP server by accident.
    .target(
      name: "SignInEmulator",
      dependencies: [
        "SignInKit", "SignInKitEmbedded", "SignInConcurrency", "SignInFoundation", "SignInCrypto", "SignInHTTP",
        "SignInWire",
      ],
      swiftSettings: strict),
    .target(
      name: "SignInREPL",
      dependencies: [
        "SignInKit", "SignInKitEmbedded", "SignInKitFlows", "SignInEmulator", "SignInConcurrency", "SignInFoundation",
        "SignInCrypto", "SignInHTTP",
      ],
      swiftSettings: strict),
    .executableTarget(name: "signin", dependencies: ["SignInREPL"], swiftSettings: strict),
    .testTarget(
      name: "SignInREPLTests",
      dependencies: [
        "SignInREPL", "signin", "SignInKitTesting", "SignInKitEmbedded", "SignInConcurrency", "SignInCrypto",
        "SignInFoundation", "SignInTestSupport",
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "signin-bench",
      dependencies: [
        "SignInKit", "SignInKitEmbedded", "SignInEmulator", "SignInConcurrency", "SignInCrypto", "SignInWire",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "SignInKitTests",
      dependencies: [
        "SignInKit", "SignInKitTesting", "SignInKitEmbedded", "SignInEmulator", "SignInConcurrency", "SignInCrypto",
        "SignInHTTP", "SignInWire", "SignInTestSupport", "SignInEmbeddedTestSupport",
      ],
      exclude: ["Backends/Firebase/Golden"], swiftSettings: strict),
    .testTarget(
      name: "SignInEmulatorTests",
      dependencies: [
        "SignInEmulator", "SignInKit", "SignInKitEmbedded", "SignInKitTesting", "SignInWire", "SignInConcurrency",
        "SignInCrypto", "SignInFoundation", "SignInTestSupport", "SignInEmbeddedTestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "SignInKitTestingTests", dependencies: ["SignInKitTesting", "SignInConcurrency"], swiftSettings: strict),
    .testTarget(
      name: "SignInKitEmbeddedTests",
      dependencies: [
        "SignInKitEmbedded", "SignInKitTesting", "embedded-writer", "SignInConcurrency", "SignInCrypto",
        "SignInTestSupport", "SignInEmbeddedTestSupport", "SignInStorage",
      ],
      swiftSettings: strict),
    // GoogleService-Info.plist checked at build time, and the doctor.
    .target(name: "ServiceInfo", swiftSettings: strict),
    .executableTarget(
      name: "service-info-generator", dependencies: ["ServiceInfo"], path: "Sources/ServiceInfoGenerator",
      swiftSettings: strict),
    .plugin(name: "ServiceInfoPlugin", capability: .buildTool(), dependencies: ["service-info-generator"]),
    .executableTarget(
      name: "signin-doctor", dependencies: ["ServiceInfo", "SignInKit"], path: "Sources/SignInDoctorTool",
      swiftSettings: strict),
    .plugin(
      name: "SignInDoctor",
      capability: .command(
        intent: .custom(
          verb: "signin-doctor",
          description:
            "Check the package's sign-in configuration (--online also asks the backend; on macOS add --disable-sandbox)"
        ),
        permissions: []),
      dependencies: ["signin-doctor"]),
    // Sign-in screens' models without SwiftUI, tested here; SignInKitUI's views sit on them.
    .target(
      name: "SignInKitFlows", dependencies: ["SignInKit"],
      // The words of the flows and of SignInKitUI's screens, read by FlowStrings on every
      // platform alike (copied, not compiled, so Linux reads the same catalog).
      resources: [.copy("Resources/Localizable.xcstrings"), .copy("Resources/PrivacyInfo.xcprivacy")],
      swiftSettings: strict),
    .target(
      name: "SignInKitUI", dependencies: ["SignInKitFlows", "SignInKit"], resources: [.copy("PrivacyInfo.xcprivacy")],
      swiftSettings: strict),
    .testTarget(
      name: "SignInKitFlowsTests",
      dependencies: [
        "SignInKitFlows", "SignInKit", "SignInKitEmbedded", "SignInKitTesting", "SignInEmbeddedTestSupport",
        "SignInEmulator", "SignInCrypto",
      ],
      swiftSettings: strict),
    // The documentation's "after" examples (SignInKit.docc), built and run by their tests.
    .target(
      name: "SignInKitExamples", dependencies: ["SignInKit", "SignInKitFlows", "SignInKitUI"], swiftSettings: strict),
    .testTarget(
      name: "SignInKitExamplesTests",
      dependencies: [
        "SignInKitExamples", "SignInKit", "SignInKitEmbedded", "SignInKitTesting", "SignInEmulator",
        "SignInEmbeddedTestSupport",
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "signin-quickstart", dependencies: ["SignInKit", "SignInKitEmbedded"], path: "Sources/QuickStart",
      swiftSettings: strict, plugins: ["ServiceInfoPlugin"]),
    .testTarget(
      name: "ServiceInfoTests",
      dependencies: ["ServiceInfo", "SignInKitTesting", "SignInTestSupport", "signin-doctor", "signin-quickstart"],
      exclude: ["Fixtures"], swiftSettings: strict),
    // Test plumbing shared by the test targets (launching processes, blocking calls off the pool).
    .target(
      name: "SignInTestSupport", dependencies: ["SignInConcurrency", "SignInHTTP"],
      path: "Tests/Support/SignInTestSupport",
      swiftSettings: strict),
    // The embedded backend as the tests make it (a cheap hash, a clock moved by hand), for the
    // embedded backend's and the emulator's tests.
    .target(
      name: "SignInEmbeddedTestSupport",
      dependencies: [
        "SignInKit", "SignInKitEmbedded", "SignInKitTesting", "SignInConcurrency", "SignInEmulator", "SignInWire",
        "SignInCrypto",
      ],
      path: "Tests/Support/SignInEmbeddedTestSupport", swiftSettings: strict),
    // Each internal layer's own tests.
    .testTarget(
      name: "SignInConcurrencyTests", dependencies: ["SignInConcurrency", "SignInKitTesting", "SignInTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "SignInCryptoTests",
      dependencies: [
        "SignInCrypto", "SignInConcurrency", .target(name: "CLibcrypto", condition: .when(platforms: openSSLPlatforms)),
      ],
      swiftSettings: strict),
    .testTarget(name: "SignInWireTests", dependencies: ["SignInWire"], swiftSettings: strict),
    .testTarget(
      name: "SignInFoundationTests", dependencies: ["SignInFoundation", "SignInTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "SignInStorageTests", dependencies: ["SignInStorage", "SignInTestSupport"], swiftSettings: strict),
    .testTarget(
      name: "SignInHTTPTests",
      dependencies: ["SignInHTTP", "SignInConcurrency", "SignInTestSupport", "SignInKitTesting"],
      swiftSettings: strict),
    // A helper process for the crash test: writes accounts until SIGKILLed.
    .executableTarget(
      name: "embedded-writer", dependencies: ["SignInKit", "SignInKitEmbedded", "SignInConcurrency"],
      path: "Tests/Support/EmbeddedWriter", swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)

// Fuzz targets, built only for fuzzing: `SIGNINKIT_FUZZ=1 swift build --sanitize=fuzzer --product fuzz-jwt`
// (see Tests/Fuzz/run). libFuzzer supplies `main`, so they are libraries of one function.
if ProcessInfo.processInfo.environment["SIGNINKIT_FUZZ"] == "1" {
  for (name, folder, dependencies) in [
    ("fuzz-jwt", "JWTFuzzer", ["SignInCrypto"]),
    ("fuzz-rest", "RESTFuzzer", ["SignInKitEmbedded"]),
    ("fuzz-command-line", "CommandLineFuzzer", ["SignInREPL"]),
    ("fuzz-service-info", "ServiceInfoFuzzer", ["ServiceInfo"]),
    ("fuzz-http-request", "HTTPRequestFuzzer", ["SignInHTTP"]),
    ("fuzz-webauthn", "WebAuthnFuzzer", ["SignInCrypto"]),
    (
      "fuzz-emulator-request", "EmulatorRequestFuzzer",
      ["SignInEmulator", "SignInKit", "SignInKitEmbedded", "SignInFoundation", "SignInConcurrency"]
    ),
    (
      "fuzz-update-mask", "UpdateMaskFuzzer", ["SignInEmulator", "SignInKit", "SignInKitEmbedded", "SignInConcurrency"]
    ),
    (
      "fuzz-import-records", "ImportRecordsFuzzer",
      ["SignInEmulator", "SignInKit", "SignInKitEmbedded", "SignInConcurrency"]
    ),
  ] as [(String, String, [Target.Dependency])] {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: dependencies, path: "Tests/Fuzz/\(folder)",
        swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])]))
  }
}
