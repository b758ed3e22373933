import Foundation
import PackagePlugin

/// Checks a target's `GoogleService-Info.plist` at build time and generates
/// `SignInConfiguration.swift` (and `FirebaseConfiguration.serviceInfo` where SignInKit is
/// imported). A misnamed duplicate download, missing keys, a malformed file, a wrong
/// `REVERSED_CLIENT_ID` or two plists fail the build with the fix in the message.
@main struct ServiceInfoPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let module = target.sourceModule else { return [] }
    let plists = module.sourceFiles.map(\.url).filter { url in
      let name = url.lastPathComponent
      return name.hasPrefix("GoogleService-Info") && name.hasSuffix(".plist")
    }
    guard !plists.isEmpty else { return [] }
    let output = context.pluginWorkDirectoryURL.appending(path: "SignInConfiguration.swift")
    return [
      .buildCommand(
        displayName: "Checking GoogleService-Info.plist of \(target.name)",
        executable: try context.tool(named: "service-info-generator").url,
        arguments: ["--output", output.path] + plists.map(\.path),
        inputFiles: plists, outputFiles: [output])
    ]
  }
}
