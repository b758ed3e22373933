import Foundation
import Testing

@testable import SignInKit

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

  @Test func aFileInTheWayIsAStorageErrorThatNamesIt() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("taken")
    try Data("not a folder".utf8).write(to: file)
    let error = try #require(throws: AuthError.self) {
      try PrivateFolder.create(at: file.appendingPathComponent("inner"))
    }
    #expect(error.code == .storage)
    #expect(error.message.contains(file.path))
    let direct = try #require(throws: AuthError.self) { try PrivateFolder.create(at: file) }
    #expect(direct.message.contains("is not a folder"))
    #expect(try Data(contentsOf: file) == Data("not a folder".utf8))
  }
}
