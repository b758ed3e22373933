import Foundation

/// JSON with its keys sorted and its slashes left as they are: what the emulator stores (tenants,
/// provider configurations) and writes into its pages, so that equal values are equal bytes.
///
/// - Concurrency: stateless.
package enum SortedJSON {
  package static func data(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(value)
  }

  /// ``data(_:)`` as text, or `nil` when `value` cannot be encoded.
  package static func text(_ value: some Encodable) -> String? {
    (try? data(value)).map { String(decoding: $0, as: UTF8.self) }
  }
}
