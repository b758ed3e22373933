import Foundation

/// The `signin` executable built beside the test bundle.
enum SigninBinary {
  static let url: URL = {
    var directory = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("signin").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("signin")
  }()
}
