import Foundation
import Testing

/// Every Swift listing in the DocC catalogs is a region of a compiled file: a
/// `// snippet.begin NAME` … `// snippet.end` region of the examples, their tests, the flows' tests or the quick
/// start (dedented), or the whole README quick start. Every region appears in an article.
@Suite struct DocumentationSnippetTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func files(in folder: String, ending suffix: String) -> [URL] {
    let base = root.appendingPathComponent(folder)
    let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
    return (enumerator?.allObjects as? [URL] ?? []).filter { $0.lastPathComponent.hasSuffix(suffix) }
      .sorted { $0.path < $1.path }
  }

  /// The named regions, by name.
  static func snippets() throws -> [String: String] {
    var snippets: [String: String] = [:]
    let sources =
      [root.appendingPathComponent("Sources/QuickStart/main.swift")]
      + files(in: "Sources/SignInKitExamples", ending: ".swift")
      + files(in: "Tests/SignInKitExamplesTests", ending: ".swift")
      + files(in: "Tests/SignInKitFlowsTests", ending: ".swift")
    for file in sources {
      let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
      var index = 0
      while index < lines.count {
        let line = lines[index]
        index += 1
        guard line.trimmingCharacters(in: .whitespaces).hasPrefix("// snippet.begin "),
          let marker = line.range(of: "// snippet.begin ")
        else { continue }
        let indent = line.distance(from: line.startIndex, to: marker.lowerBound)
        let name = String(line[marker.upperBound...])
        var body: [String] = []
        while index < lines.count, !lines[index].contains("// snippet.end") {
          body.append(
            lines[index].trimmingCharacters(in: .whitespaces).isEmpty ? "" : String(lines[index].dropFirst(indent)))
          index += 1
        }
        #expect(snippets[name] == nil, "snippet \(name) is defined twice")
        snippets[name] = body.joined(separator: "\n")
      }
    }
    let quickStart = root.appendingPathComponent("Tests/SignInKitTests/QuickStart/QuickStart.swift")
    snippets["quick-start"] = try String(contentsOf: quickStart, encoding: .utf8)
      .trimmingCharacters(in: .newlines)
    return snippets
  }

  /// The Swift listings of every article, with the article's name.
  static func listings() throws -> [(article: String, code: String)] {
    var listings: [(String, String)] = []
    let articles = files(in: "Sources", ending: ".md").filter { $0.path.contains(".docc/") }
    for article in articles {
      let text = try String(contentsOf: article, encoding: .utf8)
      for block in text.components(separatedBy: "```swift\n").dropFirst() {
        guard let end = block.range(of: "\n```") else { continue }
        listings.append((article.lastPathComponent, String(block[..<end.lowerBound])))
      }
    }
    return listings
  }

  @Test func everyListingIsCompiledCodeAndEveryExampleIsShown() throws {
    let snippets = try Self.snippets()
    let listings = try Self.listings()
    #expect(listings.count >= 8)
    var shown = Set<String>()
    for (article, code) in listings {
      let name = snippets.first { $0.value == code }?.key
      #expect(name != nil, "a listing in \(article) is not a compiled snippet:\n\(code)")
      if let name { shown.insert(name) }
    }
    #expect(shown == Set(snippets.keys), "examples no article shows: \(Set(snippets.keys).subtracting(shown).sorted())")
  }

  @Test func theMigrationArticleHasAnAfterExampleForEachPattern() throws {
    let migration = try Self.listings().filter { $0.article == "MigratingFromFirebaseAuth.md" }
    // The five blog-post patterns, GoogleSignIn kept for its sheet, and a guest's upgrade.
    #expect(migration.count == 7)
  }
}
