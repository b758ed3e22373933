/// A digest other systems' password hashes were made with, which an import keeps until the
/// user's next sign-in.
///
/// - Concurrency: `Sendable` value.
package enum DigestAlgorithm: String, Sendable, Codable, CaseIterable {
  case md5
  case sha1
  case sha256
  case sha512
}
