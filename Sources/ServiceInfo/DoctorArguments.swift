/// The command line of `signin-doctor`: `[--online] [--target NAME PLIST]...`, as the
/// `SignInDoctor` command plugin passes it.
///
/// - Concurrency: `Sendable` value.
public struct DoctorArguments: Sendable, Equatable {
  /// Also ask the backend whether it accepts each project's key.
  public var online = false
  /// Each target's plists, by path.
  public var plists: [Target] = []

  /// A target and one of its plists.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Target: Sendable, Equatable {
    public var name: String
    public var path: String
  }

  public static let usage = "usage: signin-doctor [--online] [--target NAME PLIST]..."

  /// A command line that cannot be run: the message, then ``usage``. Exit status 2.
  ///
  /// - Concurrency: `Sendable` value.
  public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [String]) throws(UsageError) -> DoctorArguments {
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
