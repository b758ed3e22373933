import Foundation

/// A Firebase App Check token and when it stops being accepted.
///
/// - Concurrency: `Sendable` value; its description never contains the token.
public struct AppCheckToken: Sendable, Equatable, CustomStringConvertible {
  public var token: String
  public var expiresAt: Date

  public init(token: String, expiresAt: Date) {
    self.token = token
    self.expiresAt = expiresAt
  }

  public var description: String { "AppCheckToken(expiresAt: \(expiresAt), token redacted)" }
}
