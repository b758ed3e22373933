import Foundation
import PackagePlugin

/// `swift package signin-doctor [--online]`: checks the package's sign-in configuration
/// (service plists, configured providers, `FIREBASE_AUTH_EMULATOR_HOST`, and with `--online`
/// that the backend answers) and prints a ✓/✗ checklist with fixes. Fails on a ✗.
@main struct SignInDoctor: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var toolArguments = arguments.filter { $0 == "--online" }
    for target in context.package.targets {
      guard let module = target.sourceModule else { continue }
      for file in module.sourceFiles where file.url.lastPathComponent.hasPrefix("GoogleService-Info")
        && file.url.lastPathComponent.hasSuffix(".plist")
      {
        toolArguments += ["--target", target.name, file.url.path]
      }
    }
    let tool = try context.tool(named: "signin-doctor")
    let process = Process()
    process.executableURL = tool.url
    process.arguments = toolArguments
    try process.run()
    process.waitUntilExit()
    if process.terminationStatus != 0 {
      Diagnostics.error("signin-doctor found problems; see the ✗ lines above.")
      exit(process.terminationStatus)
    }
  }
}
