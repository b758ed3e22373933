#if canImport(UIKit) && !os(watchOS)
  import UIKit

  /// UIKit's protected-data availability: `UIApplication.isProtectedDataAvailable`, and its
  /// `protectedDataDidBecomeAvailableNotification` when it is not yet.
  ///
  /// - Concurrency: `Sendable`; reads the application on the main actor.
  package struct SystemProtectedData: ProtectedDataAvailability {
    package init() {}

    package func untilAvailable() async {
      // Subscribed before the check, so an unlock between the two is not missed.
      let unlocks = NotificationCenter.default.notifications(
        named: UIApplication.protectedDataDidBecomeAvailableNotification)
      guard await !MainActor.run(body: { UIApplication.shared.isProtectedDataAvailable }) else { return }
      for await _ in unlocks { return }
    }
  }
#endif
