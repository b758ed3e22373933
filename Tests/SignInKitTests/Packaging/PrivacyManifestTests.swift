import Foundation
import Testing

/// Each library product that ships in apps carries Apple's privacy manifest, and it declares
/// every "required reason" API the product's code calls: a product's code is its target and every
/// target of this package that it imports, directly or through another.
@Suite struct PrivacyManifestTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The products apps link, and where each one's manifest is.
  static let products: [(target: String, manifest: String)] = [
    ("SignInKit", "Sources/SignInKit/PrivacyInfo.xcprivacy"),
    ("SignInKitEmbedded", "Sources/SignInKitEmbedded/PrivacyInfo.xcprivacy"),
    ("SignInKitFlows", "Sources/SignInKitFlows/Resources/PrivacyInfo.xcprivacy"),
    ("SignInKitUI", "Sources/SignInKitUI/PrivacyInfo.xcprivacy"),
  ]

  /// Apple's required-reason API categories, each with the calls and names that use it.
  static let categories: [(category: String, pattern: String)] = [
    (
      "NSPrivacyAccessedAPICategoryFileTimestamp",
      #"\b(stat|lstat|fstat|fstatat|getattrlist|getattrlistbulk|fgetattrlist|getattrlistat)\s*\(|\b(creationDate|modificationDate|fileModificationDate|contentModificationDate|NSFileCreationDate|NSFileModificationDate)\b|\.(creationDateKey|contentModificationDateKey)\b"#
    ),
    ("NSPrivacyAccessedAPICategorySystemBootTime", #"\bsystemUptime\b|\bmach_absolute_time\s*\("#),
    (
      "NSPrivacyAccessedAPICategoryDiskSpace",
      #"\b(statfs|statvfs|fstatfs|fstatvfs)\s*\(|\b(volumeAvailableCapacity\w*Key|volumeTotalCapacityKey|systemFreeSize|systemSize|NSFileSystemFreeSize|NSFileSystemSize)\b"#
    ),
    ("NSPrivacyAccessedAPICategoryActiveKeyboards", #"\bactiveInputModes\b"#),
    ("NSPrivacyAccessedAPICategoryUserDefaults", #"\b(UserDefaults|NSUserDefaults)\b"#),
  ]

  /// The categories `source` calls into, by Apple's list; comments are not calls.
  static func categories(calledIn source: String) throws -> Set<String> {
    let code = source.components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
      .joined(separator: "\n")
    var found: Set<String> = []
    // Simple word boundaries: Unicode's would read `UserDefaults.standard` as one word.
    for (category, pattern) in categories where code.contains(try Regex(pattern).wordBoundaryKind(.simple)) {
      found.insert(category)
    }
    return found
  }

  /// The manifest's declared categories, each with at least one reason.
  static func declaredCategories(in manifest: URL) throws -> Set<String> {
    let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: manifest), format: nil)
    let root = try #require(plist as? [String: Any], "\(manifest.lastPathComponent) is not a dictionary")
    #expect(root["NSPrivacyTracking"] as? Bool == false)
    let collected = try #require(root["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
    for kind in ["EmailAddress", "UserID", "PhoneNumber"] {
      let entry = try #require(
        collected.first { $0["NSPrivacyCollectedDataType"] as? String == "NSPrivacyCollectedDataType\(kind)" },
        "\(manifest.path) does not declare \(kind)")
      #expect(entry["NSPrivacyCollectedDataTypeLinked"] as? Bool == true)
      #expect(entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == false)
      #expect(
        entry["NSPrivacyCollectedDataTypePurposes"] as? [String] == [
          "NSPrivacyCollectedDataTypePurposeAppFunctionality"
        ])
    }
    let accessed = try #require(root["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
    return Set(
      accessed.compactMap { entry in
        (entry["NSPrivacyAccessedAPITypeReasons"] as? [String])?.isEmpty == false
          ? entry["NSPrivacyAccessedAPIType"] as? String : nil
      })
  }

  /// `target` and every target of this package it imports, directly or through another.
  static func closure(of target: String) throws -> Set<String> {
    let targets = Set(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path))
    var seen: Set<String> = []
    var pending = [target]
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      for file in try swiftFiles(of: next) {
        let text = try String(contentsOf: file, encoding: .utf8)
        for line in text.components(separatedBy: "\n") {
          let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
          if words.count >= 2, words[0] == "import", targets.contains(String(words[1])) {
            pending.append(String(words[1]))
          }
        }
      }
    }
    return seen
  }

  static func swiftFiles(of target: String) throws -> [URL] {
    let folder = root.appendingPathComponent("Sources/\(target)")
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
    return files.filter { $0.pathExtension == "swift" }
  }

  @Test(arguments: products.map(\.target))
  func everyRequiredReasonAPIAProductCallsIsDeclared(_ product: String) throws {
    let manifest = Self.root.appendingPathComponent(try #require(Self.products.first { $0.target == product }).manifest)
    let declared = try Self.declaredCategories(in: manifest)
    for target in try Self.closure(of: product) {
      for file in try Self.swiftFiles(of: target) {
        let called = try Self.categories(calledIn: String(contentsOf: file, encoding: .utf8))
        #expect(
          called.isSubset(of: declared),
          "\(file.lastPathComponent) (in \(product)) calls \(called.subtracting(declared).sorted()); declare it in \(manifest.lastPathComponent)"
        )
      }
    }
  }

  @Test func theScanFindsAPlantedCallThatNoManifestDeclares() throws {
    let planted = """
      // UserDefaults in a comment is not a call.
      func remember() { UserDefaults.standard.set(true, forKey: "seen") }
      """
    let called = try Self.categories(calledIn: planted)
    #expect(called == ["NSPrivacyAccessedAPICategoryUserDefaults"])
    let declared = try Self.declaredCategories(in: Self.root.appendingPathComponent(Self.products[0].manifest))
    #expect(!called.isSubset(of: declared), "a planted UserDefaults call would fail the product's check")
    #expect(try Self.categories(calledIn: "// stat(path, &status)\nlet x = 1") == [])
    #expect(
      try Self.categories(calledIn: "guard stat(path, &status) == 0") == ["NSPrivacyAccessedAPICategoryFileTimestamp"])
  }

  @Test func theSharedFolderCheckIsTheFileTimestampCallEveryManifestDeclares() throws {
    // SignInFoundation's `stat` (is this path a folder?) reaches every product through SignInKit.
    for product in Self.products {
      #expect(try Self.closure(of: product.target).contains("SignInFoundation"))
      #expect(
        try Self.declaredCategories(in: Self.root.appendingPathComponent(product.manifest))
          == ["NSPrivacyAccessedAPICategoryFileTimestamp"])
    }
  }
}
