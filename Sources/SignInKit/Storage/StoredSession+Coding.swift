import Foundation

extension StoredSession {
  /// What a store's bytes turned out to hold.
  enum Decoded {
    case session(StoredSession)
    /// Written by a newer build, in this format version: leave it for that build.
    case newerFormat(Int)
    /// Not a session this build can use, and why: keep it aside.
    case unusable(reason: String)
  }

  /// Reads stored bytes, looking at the format version before the whole shape (a newer build
  /// may have changed it).
  static func decode(stored data: Data) -> Decoded {
    if let version = try? JSONDecoder().decode(FormatVersion.self, from: data).formatVersion,
      version > currentFormatVersion
    {
      return .newerFormat(version)
    }
    guard let session = try? JSONDecoder.sessionDecoder.decode(StoredSession.self, from: data) else {
      return .unusable(reason: "it is not a valid saved session")
    }
    guard session.formatVersion == currentFormatVersion else {
      return .unusable(
        reason: "it was written in format \(session.formatVersion), this build reads \(currentFormatVersion)")
    }
    return .session(session)
  }

  /// The bytes a store keeps.
  ///
  /// - Throws: ``AuthError/Code/storage`` when the session cannot be encoded.
  func storedBytes() throws -> Data {
    do {
      return try JSONEncoder.sessionEncoder.encode(self)
    } catch {
      throw AuthError(.storage, "The session could not be encoded: \(error).")
    }
  }

  /// The message for a session a newer build wrote, kept where it is (`place`).
  static func newerFormatMessage(_ version: Int, at place: String) -> String {
    "The saved sign-in \(place) was written by a newer version of this app (format \(version); "
      + "this build reads \(currentFormatVersion)). It was left as it is. Upgrade the app to use "
      + "it, or sign in again here (which replaces it)."
  }

  private struct FormatVersion: Decodable { var formatVersion: Int }
}
