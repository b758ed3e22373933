import Foundation
import Observation
import SignInKit

// snippet.begin phone-sign-in-flow
/// A phone sign-in screen's model: the number, then the code. It picks up a code still pending
/// when the app comes back (the person left to read the text), sends a wrong code back to the
/// code field, and an expired one back to the number.
///
/// - Concurrency: `@MainActor`, as the view that reads it.
@MainActor @Observable public final class PhoneSignInFlow {
  public enum Step: Equatable {
    case number
    case code(PhoneVerification)
    case signedIn(User)
  }

  public var phoneNumber = ""
  public var code = ""
  public private(set) var step = Step.number
  public private(set) var message: String?
  @ObservationIgnored private let auth: Auth

  public init(auth: Auth) { self.auth = auth }

  /// Call when the screen appears: a code texted before the app went away is still good.
  public func resume() async {
    guard let pending = try? await auth.pendingPhoneVerification(), pending.purpose == .phoneNumber else { return }
    phoneNumber = pending.phoneNumber
    step = .code(pending)
  }

  public func sendCode() async {
    do {
      let verification = try await auth.verifyPhoneNumber(phoneNumber)
      step = .code(verification)
      message = "We texted a code to \(phoneNumber)."
    } catch {
      show(error)
    }
  }

  public func submitCode() async {
    guard case .code(let verification) = step else { return }
    do {
      let result = try await auth.signIn(with: verification, code: code)
      step = .signedIn(result.user)
      message = nil
    } catch {
      show(error)
    }
  }

  private func show(_ error: any Error) {
    switch error {
    case let error as AuthError where error.code == .verificationExpired:
      step = .number
      message = "That code has expired. Send a new one."
    case let error as AuthError:
      // An invalid number, a wrong code (type it again), too many requests…: the message says what to do.
      message = error.message
    default:
      message = "Something went wrong; try again."
    }
  }
}
// snippet.end

#if canImport(SwiftUI)
  import SwiftUI

  // snippet.begin phone-sign-in-view
  /// The screen over ``PhoneSignInFlow``: the number field, then the code field that waits
  /// for the text (iOS offers the code from Messages above the keyboard).
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  public struct PhoneSignInView: View {
    @State private var flow: PhoneSignInFlow

    public init(auth: Auth) { _flow = State(initialValue: PhoneSignInFlow(auth: auth)) }

    public var body: some View {
      Form {
        switch flow.step {
        case .number:
          TextField("+1 555 555 0100", text: $flow.phoneNumber)
          Button("Text me a code") { Task { await flow.sendCode() } }
        case .code:
          TextField("6-digit code", text: $flow.code)
            #if os(iOS)
              .keyboardType(.numberPad).textContentType(.oneTimeCode)
            #endif
          Button("Sign in") { Task { await flow.submitCode() } }
        case .signedIn(let user):
          Text("Signed in as \(user.phoneNumber ?? user.uid)")
        }
        if let message = flow.message { Text(message) }
      }
      .task { await flow.resume() }
    }
  }
// snippet.end
#endif

// snippet.begin phone-app-verification
/// A production `FirebaseBackend` for phone sign-in on iOS: Firebase's silent push proves the
/// app, reCAPTCHA in the system web sheet when no push comes, App Check on every call, and the
/// tenant the app's users belong to.
public func phoneReadyBackend(
  configuration: FirebaseConfiguration, tenantID: String?, appCheck: any AppCheckTokenProvider,
  deviceToken: @escaping @Sendable () async throws -> SilentPushAppVerifier.DeviceToken
) throws -> (FirebaseBackend, SilentPushAppVerifier) {
  var backend = try FirebaseBackend(configuration: configuration)
  let pushes = SilentPushAppVerifier(deviceToken: deviceToken, fallback: try? RecaptchaAppVerifier())
  backend.appVerifier = pushes
  backend.appCheck = FirebaseBackend.AppCheck(provider: appCheck)
  backend.tenantID = tenantID
  // In application(_:didReceiveRemoteNotification:fetchCompletionHandler:), hand each push to
  // `pushes.canHandle(notification:)` first: `true` means it was Firebase's.
  return (backend, pushes)
}
// snippet.end
