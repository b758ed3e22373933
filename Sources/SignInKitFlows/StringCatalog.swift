import Foundation

/// The string catalog as read from the package's resources: each key's words by language.
///
/// - Concurrency: `Sendable`; read once, never changed.
struct StringCatalog: Sendable {
  /// Key → language → words.
  let strings: [String: [String: String]]
  let languages: Set<String>

  static let shared = StringCatalog.load()

  func value(of key: String, in language: String) -> String? {
    strings[key]?[language] ?? strings[key]?["en"]
  }

  /// Reads `Localizable.xcstrings`; a catalog that cannot be read is a packaging mistake, which
  /// every test of the flows would show.
  static func load() -> StringCatalog {
    guard let url = Bundle.module.url(forResource: "Localizable", withExtension: "xcstrings"),
      let data = try? Data(contentsOf: url),
      let file = try? JSONDecoder().decode(File.self, from: data)
    else { return StringCatalog(strings: [:], languages: ["en"]) }
    var strings: [String: [String: String]] = [:]
    var languages: Set<String> = []
    for (key, entry) in file.strings {
      for (language, localization) in entry.localizations ?? [:] {
        guard let value = localization.stringUnit?.value else { continue }
        strings[key, default: [:]][language] = value
        languages.insert(language)
      }
    }
    return StringCatalog(strings: strings, languages: languages)
  }

  /// The parts of the `.xcstrings` format read here.
  struct File: Decodable {
    struct Entry: Decodable {
      var localizations: [String: Localization]?
    }
    struct Localization: Decodable {
      var stringUnit: StringUnit?
    }
    struct StringUnit: Decodable {
      var value: String?
    }
    var strings: [String: Entry]
  }
}
