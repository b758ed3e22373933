// libFuzzer target: the REPL's line parser must accept or reject any line without crashing.
import SignInREPL

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  _ = try? CommandParser.parse(line: line)
  _ = CommandCompleter.complete(line, knownEmails: ["ada@example.com"])
  return 0
}
