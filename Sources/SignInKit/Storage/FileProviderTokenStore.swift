import Foundation
import SignInFoundation

/// A ``ProviderTokenStore`` in one file, readable by this user only (0600), written atomically.
///
/// - Concurrency: `Sendable` value; any isolation.
public struct FileProviderTokenStore: ProviderTokenStore {
  public let file: URL

  public init(file: URL) { self.file = file }

  public func load() throws -> String? {
    let data = try AuthError.storage { () throws(FileError) in try FileContents.read(file, what: "The refresh token") }
    return data.flatMap { String(data: $0, encoding: .utf8) }.flatMap { $0.isEmpty ? nil : $0 }
  }

  public func save(_ refreshToken: String) throws {
    try AuthError.storage { () throws(FileError) in
      try PrivateFolder.create(at: file.deletingLastPathComponent())
      try AtomicFile.write(Data(refreshToken.utf8), to: file)
    }
  }

  public func clear() throws {
    do {
      try FileManager.default.removeItem(at: file)
    } catch CocoaError.fileNoSuchFile {
      // Nothing stored.
    } catch {
      throw AuthError(
        .storage, "\(file.path) could not be deleted (\(error.localizedDescription)); delete it yourself.")
    }
  }
}
