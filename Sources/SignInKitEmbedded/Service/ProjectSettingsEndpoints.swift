import Foundation
import SignInKit
import SignInWire

/// The project's settings on the v2 admin API (`projects/P/config`), as the Admin SDKs'
/// `projectConfigManager()` reads and changes them. `signin serve` keeps the part it acts on:
/// reCAPTCHA Enterprise (``RecaptchaGate``). Kept in the project's database, so every process on
/// the folder reads the same settings on its next call.
enum ProjectSettingsEndpoints {
  static func get(_ body: NoBody, _ context: ServiceContext) async throws -> ProjectConfig {
    try await stored(in: context.project)
  }

  /// The settings with the fields `updateMask` names changed (all that the body sets, with none).
  static func update(_ body: ResourceUpdate<ProjectConfig>, _ context: ServiceContext) async throws -> ProjectConfig {
    let mask = try body.updateMask.flatMap { $0.isEmpty ? nil : $0 }.map { try FieldMask($0, of: ProjectConfig.self) }
    let resource = body.resource
    return try await change(in: context.project) { try $0.updated(with: resource, mask: mask) }
  }

  /// The kind and key of the settings among the project's.
  static let kind = "project"
  static let key = "config"

  /// The resource name of `project`'s settings.
  static func name(of project: EmbeddedBackend) -> String { "projects/\(project.configuration.projectID)/config" }

  /// The project's settings; none set yet reads as an empty config with its name.
  static func stored(in project: EmbeddedBackend) async throws -> ProjectConfig {
    let stored = try await project.settings { try $0.value(kind, key: key) }
    var config = try stored.map { try JSONDecoder().decode(ProjectConfig.self, from: $0) } ?? ProjectConfig()
    config.name = name(of: project)
    return config
  }

  /// Changes the project's settings with `change`, read and written in one transaction.
  static func change(
    in project: EmbeddedBackend, _ change: @escaping @Sendable (ProjectConfig) throws -> ProjectConfig
  ) async throws -> ProjectConfig {
    let name = name(of: project)
    let changed = try await project.settings { rows in
      var empty = ProjectConfig()
      empty.name = name
      _ = try rows.add(kind, key: key, value: try SortedJSON.data(empty), limit: 1)
      return try rows.change(kind, key: key) { stored in
        var config = try change(try JSONDecoder().decode(ProjectConfig.self, from: stored))
        config.name = name
        return try SortedJSON.data(config)
      }
    }
    guard let changed else { throw FirebaseFailure(.internalError, "the project's settings could not be written") }
    return try JSONDecoder().decode(ProjectConfig.self, from: changed)
  }
}
