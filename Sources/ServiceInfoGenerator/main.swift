// `service-info-generator`: the tool behind ServiceInfoPlugin. It checks a target's
// GoogleService-Info plists and writes SignInConfiguration.swift, or fails the build with
// `path:line: error: message` lines that say the fix.
//
//   service-info-generator --output FILE.swift PLIST...
import Foundation
import ServiceInfo

var arguments = CommandLine.arguments.dropFirst()
guard arguments.first == "--output", arguments.count >= 3 else {
  FileHandle.standardError.write(Data("usage: service-info-generator --output FILE.swift PLIST...\n".utf8))
  exit(2)
}
arguments.removeFirst()
let output = URL(fileURLWithPath: arguments.removeFirst())
var files: [(path: String, contents: Data)] = []
for path in arguments {
  guard let contents = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("\(path):1: error: cannot read this file; check its permissions.\n".utf8))
    exit(1)
  }
  files.append((path, contents))
}
let report = ServiceInfo.check(files)
for diagnostic in report.diagnostics {
  FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
}
guard let info = report.info, !report.hasErrors else { exit(1) }
let source = info.swiftSource(
  from: files.first { $0.path.hasSuffix("/" + ServiceInfo.fileName) }?.path ?? ServiceInfo.fileName)
do {
  // Rewrite only on change, so the target is not recompiled for nothing.
  if FileManager.default.contents(atPath: output.path) != Data(source.utf8) {
    try Data(source.utf8).write(to: output, options: .atomic)
  }
} catch {
  FileHandle.standardError.write(Data("\(output.path):1: error: cannot write the generated file: \(error)\n".utf8))
  exit(1)
}
