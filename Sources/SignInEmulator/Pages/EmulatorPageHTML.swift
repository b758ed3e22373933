import Foundation
import SignInKitEmbedded

/// What the emulator's web pages share: escaping, the document around a page's body, and the
/// headers every page is served with.
///
/// Every value a page shows or carries is escaped here (``escape(_:)``), and a script reads
/// values only from `data-` attributes or JSON that ``json(_:)`` wrote, so nothing a request
/// or an account holds runs as code.
package enum EmulatorPageHTML {
  /// Served with every page: scripts and styles inline only, calls to this server only, no
  /// framing, no sniffing.
  static let securityHeaders: [EmulatorRequestPolicy.Header] = [
    .init(
      name: "Content-Security-Policy",
      value: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src * data:; "
        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"),
    .init(name: "X-Content-Type-Options", value: "nosniff"),
    .init(name: "Referrer-Policy", value: "no-referrer"),
    .init(name: "Cache-Control", value: "no-store"),
  ]

  /// `text` with HTML's special characters escaped, for an element's text or an attribute in
  /// double quotes.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }

  /// `text` with the escapes ``escape(_:)`` writes undone (`&amp;` last, so `&amp;lt;` stays
  /// `&lt;`): for a client that reads a value back from a page, as the REPL reads a refusal.
  package static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// `value` as JSON fit to sit inside a `<script>` element: `<`, `>`, `&` and the line
  /// separators escaped, so no string in it can close the element.
  static func json(_ value: some Encodable) -> String {
    let text = SortedJSON.text(value) ?? "null"
    return
      text
      .replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
      .replacingOccurrences(of: "&", with: "\\u0026").replacingOccurrences(of: "\u{2028}", with: "\\u2028")
      .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
  }

  /// A whole document: `title` (escaped) and `body` (HTML already escaped).
  static func document(title: String, body: String, script: String = "") -> String {
    """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escape(title))</title>
    <style>\(style)</style></head>
    <body>\(body)\(script.isEmpty ? "" : "<script>\(script)</script>")</body></html>
    """
  }

  private static let style = """
    body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:56rem;padding:1.5rem;color:#1d1d1f}
    h1{font-size:1.35rem;margin:.2rem 0 1rem}h2{font-size:1.05rem;margin:1.6rem 0 .5rem}
    .note{background:#fff8e1;border:1px solid #f0d36b;border-radius:6px;padding:.6rem .8rem}
    .error{background:#fdecea;border:1px solid #e0a19b;border-radius:6px;padding:.6rem .8rem}
    ul.accounts{list-style:none;padding:0}ul.accounts li{margin:.3rem 0}
    button{font:inherit;padding:.35rem .8rem;border-radius:6px;border:1px solid #999;background:#f5f5f7;cursor:pointer}
    button.account{width:100%;text-align:left;display:flex;gap:.7rem;align-items:center}
    button.account img{width:32px;height:32px;border-radius:50%}
    label{display:block;margin:.4rem 0}input{font:inherit;padding:.3rem;width:20rem;max-width:100%}
    table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;vertical-align:top}
    .muted{color:#6e6e73}code{font-size:.9em}
    """
}

extension EmulatorPageHTML {
  /// `value` as compact JSON with sorted keys: a fake IdP token or SAML response.
  static func compactJSON(_ value: some Encodable) -> String {
    SortedJSON.text(value) ?? "{}"
  }
}
