import Foundation

/// Whether the device's protected data (the keychain items readable "after first unlock") can be
/// read now, and a wait until it can: what ``KeychainSessionStore`` asks when the keychain is
/// locked at launch. `SystemProtectedData` is UIKit's on iOS, tvOS and visionOS; tests pass one
/// they unlock themselves.
///
/// - Concurrency: `Sendable`; calls may come from any isolation.
package protocol ProtectedDataAvailability: Sendable {
  /// Suspends until protected data is available; returns at once when it already is, and when
  /// the calling task is cancelled.
  func untilAvailable() async
}

/// Protected data that is always available: macOS, Linux, and a keychain that is never locked.
///
/// - Concurrency: `Sendable` value.
package struct AlwaysAvailableData: ProtectedDataAvailability {
  package init() {}
  package func untilAvailable() async {}
}
