import Foundation
import SignInFoundation
import SignInTestSupport
import Testing

@Suite struct PrivateFolderTests {
  @Test func makesMissingParentsOwnerOnly() throws {
    let directory = try TemporaryDirectory()
    let nested = directory.url.appendingPathComponent("a/b/c", isDirectory: true)
    try PrivateFolder.create(at: nested)
    for path in ["a", "a/b", "a/b/c"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: directory.url.appendingPathComponent(path).path)
      #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }
  }

  @Test func leavesAnExistingFolderAndItsModeAsTheyAre() throws {
    let directory = try TemporaryDirectory()
    let folder = directory.url.appendingPathComponent("shared")
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o750])
    try Data("kept".utf8).write(to: folder.appendingPathComponent("file"))
    try PrivateFolder.create(at: folder)
    let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o750)
    #expect(try Data(contentsOf: folder.appendingPathComponent("file")) == Data("kept".utf8))
  }

  // Item 12 of the third hardening: a folder someone else made is not used.

  @Test func aFolderOfAnotherUserIsRefusedWithTheFix() throws {
    let directory = try TemporaryDirectory()
    let planted = directory.url.appendingPathComponent("planted")
    try PrivateFolder.create(at: planted)
    // As if another user had made it: the folder's owner is not the one asked for.
    let error = try #require(throws: FileError.self) { try PrivateFolder.create(at: planted, owner: geteuid() &+ 1) }
    #expect(error.message.contains("belongs to another user"))
    #expect(error.message.contains(planted.path))
  }

  @Test(arguments: [0o777, 0o770, 0o722])
  func aFolderOthersCanWriteIsRefusedWithTheFix(_ mode: Int) throws {
    let directory = try TemporaryDirectory()
    let shared = directory.url.appendingPathComponent("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: shared.path)
    let error = try #require(throws: FileError.self) { try PrivateFolder.create(at: shared) }
    #expect(error.message.contains("chmod go-w \(shared.path)"))
    // A folder inside it is checked too.
    try FileManager.default.createDirectory(
      at: shared.appendingPathComponent("backend"), withIntermediateDirectories: false)
    try FileManager.default.setAttributes(
      [.posixPermissions: mode], ofItemAtPath: shared.appendingPathComponent("backend").path)
    #expect(throws: FileError.self) { try PrivateFolder.create(at: shared.appendingPathComponent("backend")) }
  }

  @Test func aSharedParentLikeTmpIsFine() throws {
    let directory = try TemporaryDirectory()
    let parent = directory.url.appendingPathComponent("tmp-like")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: parent.path)
    try PrivateFolder.create(at: parent.appendingPathComponent("mine/data"))
  }

  @Test func aFileInTheWayIsAnErrorThatNamesIt() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("taken")
    try Data("not a folder".utf8).write(to: file)
    let error = try #require(throws: FileError.self) {
      try PrivateFolder.create(at: file.appendingPathComponent("inner"))
    }
    #expect(error.message.contains(file.path))
    let direct = try #require(throws: FileError.self) { try PrivateFolder.create(at: file) }
    #expect(direct.message.contains("is not a folder"))
    #expect(try Data(contentsOf: file) == Data("not a folder".utf8))
  }
}
