import Foundation
import SignInTestSupport
import Testing

@testable import SignInFoundation

@Suite struct DescriptorOutputTests {
  @Test func writesEveryByteOfABufferLargerThanOneWriteTakes() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("out")
    let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let fd = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    #expect(fd >= 0)
    let failure = bytes.withUnsafeBytes { DescriptorOutput.write($0, to: fd) }
    close(fd)
    #expect(failure == nil)
    #expect(try Data(contentsOf: file) == Data(bytes))
  }

  @Test func aDescriptorThatCannotBeWrittenGivesItsErrno() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("read-only")
    try Data("kept".utf8).write(to: file)
    let fd = open(file.path, O_RDONLY | O_CLOEXEC)
    #expect(fd >= 0)
    let failure = Array("more".utf8).withUnsafeBytes { DescriptorOutput.write($0, to: fd) }
    close(fd)
    #expect(failure == EBADF)
    #expect(try Data(contentsOf: file) == Data("kept".utf8))
  }
}
