// Signs up accounts in a loop in an embedded backend directory, printing each uid once it is
// committed, until killed. The crash test SIGKILLs it mid-write and then checks the directory.
import Foundation
import SignInKit
import SignInKitEmbedded

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: embedded-writer DIRECTORY\n".utf8))
  exit(2)
}
let directory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
let configuration = EmbeddedBackend.Configuration(scrypt: ScryptParameters(n: 1 << 4, r: 1, p: 1))
let backend = try EmbeddedBackend(directory: directory, configuration: configuration)
var index = 0
while true {
  let result = try await backend.signUp(
    SignUpRequest(email: "user\(index)@example.com", password: "secret\(index)"))
  FileHandle.standardOutput.write(Data("\(result.localID)\n".utf8))  // unbuffered
  index += 1
}
