import SignInKitEmbedded
import SignInWire

extension EmulatorRouteTable {
  /// Every endpoint of ``FirebaseAPI/all``: the service's, and the emulator's web pages.
  static let firebase = routing(.firebase)

  /// A route for each endpoint of ``FirebaseAPI/all``: to the service for each one
  /// `registrations` answers, to the emulator's web page for the others that have one.
  static func routing(_ registrations: IdentityToolkitService.Registrations) -> EmulatorRouteTable {
    var table = EmulatorRouteTable()
    for endpoint in FirebaseAPI.all where registrations.answers(endpoint) {
      table.addService(endpoint)
    }
    if !registrations.answers(FirebaseAPI.emulatorHandler) {
      table.addPage(FirebaseAPI.emulatorHandler, HostedHandlerPage.page)
    }
    if !registrations.answers(FirebaseAPI.emulatorHandlerChoice) {
      table.addPage(FirebaseAPI.emulatorHandlerChoice, HostedHandlerPage.choose)
    }
    if !registrations.answers(FirebaseAPI.emulatorAccountsPage) {
      table.addPage(FirebaseAPI.emulatorAccountsPage, AccountsPage.page)
    }
    return table
  }
}
