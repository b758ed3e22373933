import Foundation

/// Where an emailed link leads once its action is done, and whether the app opens it: the
/// settings FirebaseAuth sends with a password reset, a verification or a sign-in link.
///
/// ```swift
/// let settings = ActionCodeSettings(
///   continueURL: URL(string: "https://example.com/finish-sign-in")!, handlesCodeInApp: true,
///   iOSBundleID: "com.example.app")
/// try await auth.sendSignInLink(to: "ada@example.com", settings: settings)
/// ```
///
/// - Concurrency: `Sendable` value.
public struct ActionCodeSettings: Sendable, Equatable {
  /// The page the link continues to (`continueUrl`); its domain must be authorized in the
  /// project. Required for a sign-in link.
  public var continueURL: URL?
  /// Whether the link opens the app, which then completes the action itself
  /// (`canHandleCodeInApp`); a sign-in link needs `true`.
  public var handlesCodeInApp: Bool
  /// The iOS app that should open the link (`iOSBundleId`).
  public var iOSBundleID: String?
  /// The Android app that should open the link (`androidPackageName`).
  public var androidPackageName: String?
  /// A custom Firebase Hosting domain for the link (`linkDomain`).
  public var linkDomain: String?

  public init(
    continueURL: URL? = nil, handlesCodeInApp: Bool = false, iOSBundleID: String? = nil,
    androidPackageName: String? = nil, linkDomain: String? = nil
  ) {
    self.continueURL = continueURL
    self.handlesCodeInApp = handlesCodeInApp
    self.iOSBundleID = iOSBundleID
    self.androidPackageName = androidPackageName
    self.linkDomain = linkDomain
  }
}
