import Foundation

/// The flows' words in one language, read from the package's string catalog
/// (`Localizable.xcstrings`): the same file and the same lookup on Apple platforms and on Linux.
/// A language the catalog lacks reads as English; so does a key a language lacks (the catalog
/// test keeps that from happening).
///
/// ```swift
/// let strings = FlowStrings(language: "fr")
/// strings(.notAnEmail, "ada@")   // "ada@ n'est pas une adresse e-mail ; vérifiez-la et réessayez."
/// ```
///
/// - Concurrency: `Sendable` value; the catalog is read once per process.
public struct FlowStrings: Sendable, Hashable {
  /// The catalog language these words are in: one of ``languages``.
  public let language: String

  /// The words in the catalog's language nearest to `identifier` (`"es"`, `"es-MX"`, `"pt_BR"`,
  /// `"zh-Hans-CN"`): the full identifier, then its language and script, then its language.
  public init(language identifier: String) {
    language = Self.nearest(to: identifier) ?? Self.sourceLanguage
  }

  /// The words in the first of the person's preferred languages the catalog has.
  public static var preferred: FlowStrings {
    FlowStrings(language: Locale.preferredLanguages.first { nearest(to: $0) != nil } ?? sourceLanguage)
  }

  /// The languages the catalog has, English first.
  public static var languages: [String] {
    [sourceLanguage] + StringCatalog.shared.languages.subtracting([sourceLanguage]).sorted()
  }

  /// The words of `text`, with `arguments` put in for its `%@` (strings) and `%lld` (integers).
  public func callAsFunction(_ text: FlowText, _ arguments: any CVarArg...) -> String {
    let format = StringCatalog.shared.value(of: text.rawValue, in: language) ?? text.rawValue
    guard !arguments.isEmpty else { return format }
    return String(format: format, locale: Locale(identifier: language), arguments: arguments)
  }

  /// The items of a list joined as the language writes a list in a sentence.
  public func list(_ items: [String]) -> String {
    items.joined(separator: self(.listSeparator))
  }

  private static let sourceLanguage = "en"

  private static func nearest(to identifier: String) -> String? {
    let known = StringCatalog.shared.languages
    let parts = identifier.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
    guard let first = parts.first else { return nil }
    var candidates = [parts.joined(separator: "-")]
    if parts.count > 1 { candidates.append(first + "-" + parts[1]) }
    // Chinese without a script is written in Simplified characters in the mainland and Singapore.
    if first == "zh", !parts.contains("Hant") { candidates.append("zh-Hans") }
    if first == "pt" { candidates.append("pt-BR") }
    candidates.append(first)
    let lowered = Dictionary(known.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
    return candidates.lazy.compactMap { lowered[$0.lowercased()] }.first
  }
}
