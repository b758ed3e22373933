/// A path with named placeholders (`v1/projects/{project}/tenants/{tenant}/accounts:lookup`): the
/// client fills them in, the emulator matches a request's path against them. A placeholder
/// stands for one or more characters other than `/` and `:`.
///
/// - Concurrency: `Sendable` value.
package struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
  /// The literal text and the placeholders, in order.
  package enum Piece: Sendable, Hashable {
    case literal(String)
    case placeholder(String)
  }

  package let pieces: [Piece]
  package let description: String

  package init(_ text: String) {
    description = text
    var pieces: [Piece] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
      pieces.append(.placeholder(String(rest[rest.index(after: open)..<close])))
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { pieces.append(.literal(String(rest))) }
    self.pieces = pieces
  }

  /// Whether it has no placeholders: then it matches its own text only.
  package var isLiteral: Bool { pieces.allSatisfy { if case .literal = $0 { true } else { false } } }

  /// The placeholders' values in `path`, or `nil` when `path` does not have this shape.
  package func match(_ path: Substring) -> [String: String]? {
    var values: [String: String] = [:]
    var rest = path
    for piece in pieces {
      switch piece {
      case .literal(let text):
        guard rest.hasPrefix(text) else { return nil }
        rest = rest.dropFirst(text.count)
      case .placeholder(let name):
        let value = rest.prefix { $0 != "/" && $0 != ":" }
        guard !value.isEmpty else { return nil }
        values[name] = String(value)
        rest = rest.dropFirst(value.count)
      }
    }
    return rest.isEmpty ? values : nil
  }

  /// The path with each placeholder replaced by its value in `values` (percent-encoded); a
  /// placeholder without a value is left as it is.
  package func filled(_ values: [String: String]) -> String {
    pieces.map { piece in
      switch piece {
      case .literal(let text): text
      case .placeholder(let name): values[name].map(FormEncoding.escape) ?? "{\(name)}"
      }
    }.joined()
  }
}
