import Foundation

/// A folder only its owner may enter (mode 0700), made with any missing parents.
///
/// `mkdir(2)` is called directly: when the folder already exists, as it does at every launch
/// but the first, that is one system call, where `FileManager.createDirectory` costs about half
/// a millisecond the first time a process uses it.
///
/// - Concurrency: stateless; any isolation. Two processes making the same folder at once both
///   succeed.
package enum PrivateFolder {
  /// Makes the folder at `url` and its missing parents. An existing folder is left as it is,
  /// mode included.
  ///
  /// - Throws: ``AuthError/Code/storage`` naming the folder when it cannot be made or a file
  ///   that is not a folder has its name.
  package static func create(at url: URL) throws(AuthError) {
    try create(path: url.standardizedFileURL.path)
  }

  private static func create(path: String) throws(AuthError) {
    if mkdir(path, 0o700) == 0 { return }
    switch errno {
    case EEXIST:
      var status = stat()
      guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
        throw AuthError(.storage, "\(path) is not a folder. Move it away, or choose another data folder.")
      }
    case ENOENT where path != "/":
      try create(path: (path as NSString).deletingLastPathComponent)
      guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure(path, errno) }
    case let code:
      throw failure(path, code)
    }
  }

  private static func failure(_ path: String, _ code: Int32) -> AuthError {
    AuthError(
      .storage,
      "The folder \(path) could not be created (\(String(cString: strerror(code)))). Check that its parent is writable."
    )
  }
}
