import Foundation
import SignInKitFlows
import Testing

/// The string catalog has every word of the flows and screens in every language it promises, and
/// `FlowStrings` reads the person's language from it.
@Suite struct FlowStringsTests {
  /// The languages the issue promised: a catalog without one of them fails here.
  static let promised = ["en", "es", "fr", "de", "ja", "ko", "pt-BR", "zh-Hans"]

  /// The catalog as the package ships it: key → language → words.
  static func catalog() throws -> [String: [String: String]] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/SignInKitFlows/Resources/Localizable.xcstrings")
    let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    #expect(file["sourceLanguage"] as? String == "en")
    let strings = try #require(file["strings"] as? [String: [String: Any]])
    return strings.mapValues { entry in
      let localizations = entry["localizations"] as? [String: [String: [String: String]]] ?? [:]
      return localizations.compactMapValues { $0["stringUnit"]?["value"] }
    }
  }

  @Test func everyKeyIsInEveryPromisedLanguageWithTheSamePlaceholders() throws {
    let catalog = try Self.catalog()
    for text in FlowText.allCases {
      let words = try #require(catalog[text.rawValue], "\(text) is not in the catalog")
      let english = try #require(words["en"])
      for language in Self.promised {
        guard let translated = words[language], !translated.isEmpty else {
          Issue.record("\(text) has no \(language) words")
          continue
        }
        #expect(Self.placeholders(translated) == Self.placeholders(english), "\(text) in \(language): \(translated)")
      }
    }
    let unknown = Set(catalog.keys).subtracting(FlowText.allCases.map(\.rawValue))
    #expect(unknown.isEmpty, "the catalog has keys no screen uses: \(unknown.sorted())")
  }

  @Test func theShippedCatalogIsTheOneRead() {
    #expect(Set(FlowStrings.languages).isSuperset(of: Self.promised))
    #expect(FlowStrings.languages.first == "en")
    for language in Self.promised {
      #expect(FlowStrings(language: language)(.signInTitle) != FlowText.signInTitle.rawValue)
    }
  }

  @Test(arguments: [
    ("es-MX", "es"), ("pt_PT", "pt-BR"), ("pt", "pt-BR"), ("zh-CN", "zh-Hans"), ("zh-Hans-SG", "zh-Hans"),
    ("de-AT", "de"), ("ja_JP", "ja"), ("xx", "en"), ("", "en"),
  ])
  func aLanguageIsMatchedToTheNearestInTheCatalog(identifier: String, language: String) {
    #expect(FlowStrings(language: identifier).language == language)
  }

  @Test func valuesArePutInTheirPlacesInEachLanguage() {
    #expect(FlowStrings(language: "en")(.notAnEmail, "ada@") == "ada@ is not an email address; check it and try again.")
    #expect(
      FlowStrings(language: "es")(.notAnEmail, "ada@")
        == "ada@ no es un correo electrónico; revísalo e inténtalo de nuevo."
    )
    #expect(FlowStrings(language: "de")(.requirementMinimumLength, 8) == "mindestens 8 Zeichen")
    #expect(
      FlowStrings(language: "fr")(.conflictBody, "ada@example.com", "GitHub")
        == "ada@example.com a déjà un compte. Connectez-vous-y une fois pour y ajouter GitHub.")
    #expect(FlowStrings(language: "ja").list(["a", "b"]) == "a、b")
  }

  /// The `%@`, `%lld` and positional `%1$@` placeholders of `text`, sorted.
  static func placeholders(_ text: String) -> [String] {
    let pattern = try! Regex(#"%(\d\$)?(@|lld)"#)
    return text.matches(of: pattern).map { String(text[$0.range]) }.sorted()
  }
}
