/// The command line of `signin-doctor`: `[--online] [--target NAME PLIST]...`, as the
/// `SignInDoctor` command plugin passes it.
///
/// - Concurrency: `Sendable` value.
package struct DoctorArguments: Sendable, Equatable {
  /// Also ask the backend whether it accepts each project's key.
  package var online = false
  /// Each target's plists, by path.
  package var plists: [Target] = []

  /// A target and one of its plists.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Target: Sendable, Equatable {
    package var name: String
    package var path: String
  }

  package static let usage = "usage: signin-doctor [--online] [--target NAME PLIST]..."

  /// A command line that cannot be run: the message, then ``usage``. Exit status 2.
  ///
  /// - Concurrency: `Sendable` value.
  package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }

  /// Parses the arguments after the program name.
  package static func parse(_ arguments: [String]) throws(UsageError) -> DoctorArguments {
    var parsed = DoctorArguments()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--online": parsed.online = true
      case "--target":
        guard let name = remaining.popFirst(), let path = remaining.popFirst() else {
          throw UsageError(message: "--target needs a target name and a plist path.\n\(usage)")
        }
        parsed.plists.append(Target(name: name, path: path))
      default:
        throw UsageError(message: "unknown option \(argument)\n\(usage)")
      }
    }
    return parsed
  }
}
