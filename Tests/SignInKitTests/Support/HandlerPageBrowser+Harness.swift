import SignInEmbeddedTestSupport
import SignInEmulator
import SignInKitEmbedded

extension HandlerPageBrowser {
  /// The routes of the handler a harness's backend serves.
  static func routes(of harness: Harness) -> FirebaseEmulatorRoutes {
    switch harness.kind {
    case .scripted: FirebaseEmulatorRoutes(backend: harness.backend.accounts)
    case .embedded: FirebaseEmulatorRoutes(backend: harness.backendUnderTest as! EmbeddedBackend)
    case .served: (harness.backendUnderTest as! ServedBackend).server!.routes
    case .inProcess: FirebaseEmulatorRoutes(backend: (harness.backendUnderTest as! ServedBackend).embedded)
    }
  }

}
