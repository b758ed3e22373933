// libFuzzer target: the GoogleService-Info.plist checks must report on any file without crashing.
import Foundation
import ServiceInfo

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServiceInfo(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let contents = Data(UnsafeBufferPointer(start: data, count: size))
  let report = ServiceInfo.check([("/fuzz/GoogleService-Info.plist", contents)])
  _ = report.info?.swiftSource(from: "GoogleService-Info.plist")
  return 0
}
