import Foundation

/// A folder only its owner may enter (mode 0700), made with any missing parents. One that
/// exists already must belong to the user running the process and not be writable by others:
/// a folder someone else made (say under a shared `/tmp`) could hold a signing key or a session
/// they planted, or be emptied and refilled by them later.
///
/// `mkdir(2)` is called directly: when the folder already exists, as it does at every launch
/// but the first, that is one system call, where `FileManager.createDirectory` costs about half
/// a millisecond the first time a process uses it.
///
/// - Concurrency: stateless; any isolation. Two processes making the same folder at once both
///   succeed.
package enum PrivateFolder {
  /// Makes the folder at `url` and its missing parents. An existing folder is left as it is,
  /// mode included, once it is known to be the user's own.
  ///
  /// - Parameter owner: the user the folder must belong to; the process's effective user.
  /// - Throws: ``FileError`` naming the folder when it cannot be made, a file that
  ///   is not a folder has its name, or an existing folder belongs to another user or can be
  ///   written by others; the message says what to do.
  package static func create(at url: URL, owner: uid_t = geteuid()) throws(FileError) {
    try create(path: url.standardizedFileURL.path, owner: owner)
  }

  private static func create(path: String, owner: uid_t) throws(FileError) {
    if mkdir(path, 0o700) == 0 { return }
    switch errno {
    case EEXIST:
      try checkExisting(path, owner: owner)
    case ENOENT where path != "/":
      try createParent(path: (path as NSString).deletingLastPathComponent)
      if mkdir(path, 0o700) == 0 { return }
      guard errno == EEXIST else { throw failure(path, errno) }
      // Another process made it meanwhile: it must pass the same checks.
      try checkExisting(path, owner: owner)
    case let code:
      throw failure(path, code)
    }
  }

  /// A missing parent is made as the folder is; an existing one is used whoever owns it (`/tmp`,
  /// a home folder), since only the folder itself holds what matters.
  private static func createParent(path: String) throws(FileError) {
    if mkdir(path, 0o700) == 0 { return }
    switch errno {
    case EEXIST:
      guard isFolder(path) else { throw notAFolder(path) }
    case ENOENT where path != "/":
      try createParent(path: (path as NSString).deletingLastPathComponent)
      guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure(path, errno) }
    case let code:
      throw failure(path, code)
    }
  }

  /// An existing folder: a folder, the owner's, and not writable by others.
  private static func checkExisting(_ path: String, owner: uid_t) throws(FileError) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw notAFolder(path) }
    guard status.st_uid == owner else {
      throw FileError(
        "\(path) belongs to another user (uid \(status.st_uid)), who could have put a key or a session in it. "
          + "Use a folder of your own, or remove this one so it is made again.")
    }
    guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
      throw FileError(
        "\(path) can be written by other users (mode \(String(status.st_mode & 0o777, radix: 8))), who could "
          + "replace what is in it. Run chmod go-w \(path), or use another folder.")
    }
  }

  private static func isFolder(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }

  private static func notAFolder(_ path: String) -> FileError {
    FileError("\(path) is not a folder. Move it away, or choose another data folder.")
  }

  private static func failure(_ path: String, _ code: Int32) -> FileError {
    FileError(
      "The folder \(path) could not be created (\(String(cString: strerror(code)))). Check that its parent is writable."
    )
  }
}
