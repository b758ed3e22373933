import Foundation
import Testing

@testable import SignInKit

/// The session's rules, one row each, run against the `SessionStateMachine` struct itself (no
/// `Auth`, no backend, no clock): what happens, in order, and what the machine then shows and
/// asks `Auth` to do. `SessionStateMachineTests` checks the same rules through `Auth` at random.
struct SessionStateMachineRulesTests {
  /// Something that happens to the session.
  enum Step: CustomStringConvertible {
    case launchFinds(SessionStateMachine.StoreRead)
    case signInStarts(ProviderID)
    /// The newest sign-in started so far stores this session.
    case signInCommits(StoredSession)
    /// The sign-in started first stores this session.
    case firstSignInCommits(StoredSession)
    /// The newest sign-in stores this session, made with ``Google/provider``.
    case signInWithProviderCommits(StoredSession)
    /// The providers restored beside the session: ``Google/provider`` for `google.com`.
    case providersRestored
    /// A terminal failure (a refresh, an account call) ends the session.
    case backendEndsSession(SignOutReason)
    case signInFails
    case userSignsOut
    case userDeletesAccount
    case refreshStarts
    case refreshSucceeds(StoredSession)
    case refreshFails(AuthError.Code)
    case operationStarts
    case operationEnds(AuthError.Code?)
    case restoreStarts
    /// A restore starts that can ask Google about a stored user.
    case restoreStartsCheckingGoogle
    case restoreReads(SessionStateMachine.StoreRead)
    /// The provider the restore asked answers (`nil`: no answer in time).
    case providerAnswers(ProviderCredentialState?)
    /// The restore's launch refresh ended (here: ran out of time, having changed nothing).
    case restoreRefreshEnds
    /// An account change starts under the identity signed in now.
    case accountChangeStarts
    /// The account change stores this session.
    case accountChangeStored(StoredSession)
    case shutDown

    var description: String {
      switch self {
      case .launchFinds(.nothing): "launch finds nothing"
      case .launchFinds(.session(_, let isFresh)): "launch finds a \(isFresh ? "fresh" : "stale") session"
      case .launchFinds(.unreadable): "launch finds an unreadable store"
      case .launchFinds(.refused(_, let reason)): "launch finds a session its provider refused (\(reason))"
      case .signInStarts(let provider): "sign-in with \(provider) starts"
      case .signInCommits: "newest sign-in commits"
      case .firstSignInCommits: "first sign-in commits"
      case .signInWithProviderCommits: "newest sign-in with a provider commits"
      case .providersRestored: "Google restored beside the session"
      case .backendEndsSession(let reason): "the backend ends the session (\(reason))"
      case .signInFails: "sign-in fails"
      case .userSignsOut: "user signs out"
      case .userDeletesAccount: "user deletes the account"
      case .refreshStarts: "refresh starts"
      case .refreshSucceeds: "refresh succeeds"
      case .refreshFails(let code): "refresh fails with \(code)"
      case .operationStarts: "operation starts"
      case .operationEnds(let code): "operation ends\(code.map { " with \($0)" } ?? "")"
      case .restoreStarts: "restore starts"
      case .restoreReads(.nothing): "restore finds nothing"
      case .restoreReads(.session(_, let isFresh)): "restore finds a \(isFresh ? "fresh" : "stale") session"
      case .restoreReads(.unreadable): "restore finds an unreadable store"
      case .restoreReads(.refused(_, let reason)): "restore finds a session its provider refused (\(reason))"
      case .restoreStartsCheckingGoogle: "a restore starts that can ask Google"
      case .providerAnswers(let state): "the provider answers \(state.map { "\($0)" } ?? "nothing")"
      case .restoreRefreshEnds: "restore refresh ends"
      case .accountChangeStarts: "account change starts"
      case .accountChangeStored: "account change stored"
      case .shutDown: "shut down"
      }
    }
  }

  /// What a run of steps showed and asked for.
  struct Outcome: Equatable {
    /// Every state the machine published, in order.
    var shown: [AuthState] = []
    /// Every busy flag it published, in order.
    var busy: [Bool] = []
    var events: [AuthEvent] = []
    /// The last change it asked of the proactive refresh.
    var refresh = Refresh.keep
    /// A refresh failure that ends the session, and why.
    var endedBy: SignOutReason?
    /// Every error message it set, in order.
    var messages: [String] = []
    /// How many results it answered as superseded.
    var superseded = 0
    /// The signed-in user at the end.
    var user: User?
    /// Whether it asked `Auth` to remove the stored session.
    var clearedStore = false
    /// Whether the session at the end has ``Google/provider`` as its provider, to sign out of.
    var hasGoogle = false
    /// What happened after the sign-outs were shown, in order: `revoke TOKEN`, `sign out of
    /// google.com`.
    var afterSignOut: [String] = []
  }

  /// A provider to sign out of with the session.
  actor Google: SignInProvider {
    static let provider = Google()
    let id = ProviderID.google
    func credential() async throws -> ProviderCredential { throw AuthError(.internal, "unused") }
    func signOut() async {}
  }

  /// A change to the proactive refresh task.
  enum Refresh: Equatable {
    case keep
    case stop
    case start(afterFailures: Int)
  }

  struct Row: CustomTestStringConvertible, Sendable {
    let name: String
    let steps: @Sendable () -> [Step]
    let expect: @Sendable (inout Outcome) -> Void
    var testDescription: String { name }
  }

  static let ada = StoredSession(
    user: User(uid: "ada", email: "ada@example.com"), idToken: "id.ada.1", refreshToken: "rt.ada",
    expiresAt: Date(timeIntervalSince1970: 2_000_000_000), signInProvider: .password)
  static var adaRenamed: StoredSession {
    var session = ada
    session.user.displayName = "Ada Lovelace"
    return session
  }
  static var adaRefreshed: StoredSession {
    var session = ada
    session.idToken = "id.ada.2"
    return session
  }
  static let grace = StoredSession(
    user: User(uid: "grace", email: "grace@example.com"), idToken: "id.grace.1",
    refreshToken: "rt.grace", expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
    signInProvider: .google)
  /// Grace with her Google link, which a restore can ask Google about.
  static let graceLinked = StoredSession(
    user: User(
      uid: "grace", email: "grace@example.com", providers: [ProviderInfo(providerID: .google, rawID: "g-grace")]),
    idToken: "id.grace.1", refreshToken: "rt.grace", expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
    signInProvider: .google)

  static let rows: [Row] = [
    Row(name: "an empty store settles signed out") {
      [.launchFinds(.nothing)]
    } expect: {
      $0.shown = [.signedOut(.initial)]
      $0.events = [.initialState(.signedOut(.initial))]
    },
    Row(name: "a stale stored session is shown stale and refreshed in backoff") {
      [.launchFinds(.session(ada, isFresh: false))]
    } expect: {
      $0.shown = [.signedIn(ada.user, .stale)]
      $0.events = [.initialState(.signedIn(ada.user, .stale))]
      $0.refresh = .start(afterFailures: 0)
      $0.user = ada.user
    },
    Row(name: "a sign-in shows signingIn, then the user") {
      [.launchFinds(.nothing), .signInStarts(.password), .signInCommits(ada)]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.password), .signedIn(ada.user, .fresh)]
      $0.events = [.initialState(.signedOut(.initial)), .signedIn(ada.user, isNewUser: false)]
      $0.refresh = .start(afterFailures: 0)
      $0.user = ada.user
    },
    Row(name: "the last sign-in started wins") {
      [
        .launchFinds(.nothing), .signInStarts(.password), .signInStarts(.google), .firstSignInCommits(ada),
        .signInCommits(grace),
      ]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.password), .signingIn(.google), .signedIn(grace.user, .fresh)]
      $0.events = [.initialState(.signedOut(.initial)), .signedIn(grace.user, isNewUser: false)]
      $0.refresh = .start(afterFailures: 0)
      $0.user = grace.user
    },
    Row(name: "a failed sign-in shows the settled state again") {
      [.launchFinds(.nothing), .signInStarts(.password), .signInFails]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.password), .signedOut(.initial)]
      $0.events = [.initialState(.signedOut(.initial))]
    },
    Row(name: "a sign-out by the user drops the sign-in in flight") {
      [.launchFinds(.nothing), .signInStarts(.password), .userSignsOut, .signInCommits(ada)]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.password), .signedOut(.userRequested)]
      $0.events = [.initialState(.signedOut(.initial)), .signedOut(.userRequested)]
      $0.refresh = .stop
    },
    Row(name: "a refresh marks the session refreshing, then fresh") {
      [.launchFinds(.session(ada, isFresh: true)), .refreshStarts, .refreshSucceeds(adaRefreshed)]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh), .signedIn(ada.user, .refreshing), .signedIn(ada.user, .fresh)]
      $0.events = [.initialState(.signedIn(ada.user, .fresh)), .tokenRefreshed]
      $0.refresh = .start(afterFailures: 0)
      $0.user = adaRefreshed.user
    },
    Row(name: "a transient refresh failure keeps the session, stale") {
      [.launchFinds(.session(ada, isFresh: true)), .refreshStarts, .refreshFails(.network)]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh), .signedIn(ada.user, .refreshing), .signedIn(ada.user, .stale)]
      $0.events = [
        .initialState(.signedIn(ada.user, .fresh)), .failed(AuthError(.network, "offline")),
      ]
      $0.refresh = .start(afterFailures: 0)
      $0.user = ada.user
    },
    Row(name: "a terminal refresh failure ends the session") {
      [.launchFinds(.session(ada, isFresh: true)), .refreshStarts, .refreshFails(.invalidRefreshToken)]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh), .signedIn(ada.user, .refreshing)]
      $0.events = [.initialState(.signedIn(ada.user, .fresh))]
      $0.refresh = .start(afterFailures: 0)
      $0.endedBy = AuthError.Code.invalidRefreshToken.signOutReason
      // The machine asks Auth to end it; Auth clears the store first.
      $0.user = ada.user
    },
    Row(name: "a refresh for an identity signed out meanwhile is dropped") {
      [.launchFinds(.session(ada, isFresh: true)), .refreshStarts, .userSignsOut, .refreshSucceeds(adaRefreshed)]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh), .signedIn(ada.user, .refreshing), .signedOut(.userRequested)]
      $0.events = [.initialState(.signedIn(ada.user, .fresh)), .signedOut(.userRequested)]
      $0.refresh = .stop
      $0.superseded = 1
      $0.afterSignOut = ["revoke rt.ada"]
    },
    Row(name: "busy lasts while any operation the app started is in flight") {
      [.launchFinds(.nothing), .operationStarts, .operationStarts, .operationEnds(nil), .operationEnds(nil)]
    } expect: {
      $0.shown = [.signedOut(.initial)]
      $0.busy = [true, true, true, false]
      $0.events = [.initialState(.signedOut(.initial))]
    },
    Row(name: "a failure is an event; a cancellation or a second factor is not") {
      [
        .launchFinds(.nothing), .operationStarts, .operationEnds(.cancelled), .operationStarts,
        .operationEnds(.secondFactorRequired), .operationStarts, .operationEnds(.wrongPassword),
      ]
    } expect: {
      $0.shown = [.signedOut(.initial)]
      $0.busy = [true, false, true, false, true, false]
      $0.events = [.initialState(.signedOut(.initial)), .failed(AuthError(.wrongPassword, "wrong"))]
      $0.messages = ["failed"]
    },
    Row(name: "an unreadable store at launch shows its message once, with the settled state") {
      [.launchFinds(.unreadable(AuthError(.storage, "unreadable"))), .operationStarts, .operationEnds(nil)]
    } expect: {
      $0.shown = [.signedOut(.storageUnreadable)]
      $0.busy = [true, false]
      $0.events = [.initialState(.signedOut(.storageUnreadable))]
      $0.messages = ["unreadable"]
    },
    Row(name: "a stale session found by a restore stays signed in, stale, when its refresh runs out of time") {
      [.restoreStarts, .restoreReads(.session(ada, isFresh: false)), .restoreRefreshEnds]
    } expect: {
      $0.shown = [.signedIn(ada.user, .stale)]
      $0.events = [.initialState(.signedIn(ada.user, .stale))]
      $0.refresh = .start(afterFailures: 1)
      $0.user = ada.user
    },
    Row(name: "a session its provider refused goes from restoring straight to signed out, and is removed") {
      [.restoreStartsCheckingGoogle, .restoreReads(.session(graceLinked, isFresh: true)), .providerAnswers(.revoked)]
    } expect: {
      $0.shown = [.signedOut(.credentialRevoked(.google))]
      $0.events = [.signedOut(.credentialRevoked(.google)), .initialState(.signedOut(.credentialRevoked(.google)))]
      $0.clearedStore = true
    },
    Row(name: "a restore asks the provider first, and a provider that does not answer keeps the session") {
      [.restoreStartsCheckingGoogle, .restoreReads(.session(graceLinked, isFresh: true)), .providerAnswers(nil)]
    } expect: {
      $0.shown = [.signedIn(graceLinked.user, .fresh)]
      $0.events = [.initialState(.signedIn(graceLinked.user, .fresh))]
      $0.refresh = .start(afterFailures: 0)
      $0.user = graceLinked.user
    },
    Row(name: "a refused session found beneath a sign-in is removed and the sign-in still wins") {
      [
        .restoreStartsCheckingGoogle, .signInStarts(.password), .restoreReads(.session(graceLinked, isFresh: true)),
        .providerAnswers(.transferred), .signInCommits(ada),
      ]
    } expect: {
      $0.shown = [.signingIn(.password), .signedIn(ada.user, .fresh)]
      $0.events = [.signedIn(ada.user, isNewUser: false)]
      $0.refresh = .start(afterFailures: 0)
      $0.clearedStore = true
      $0.user = ada.user
    },
    Row(name: "the provider a sign-in used is the session's, and stays through a refresh") {
      [
        .launchFinds(.nothing), .signInStarts(.google), .signInWithProviderCommits(grace), .refreshStarts,
        .refreshSucceeds(grace),
      ]
    } expect: {
      $0.shown = [
        .signedOut(.initial), .signingIn(.google), .signedIn(grace.user, .fresh), .signedIn(grace.user, .refreshing),
        .signedIn(grace.user, .fresh),
      ]
      $0.events = [.initialState(.signedOut(.initial)), .signedIn(grace.user, isNewUser: false), .tokenRefreshed]
      $0.refresh = .start(afterFailures: 0)
      $0.user = grace.user
      $0.hasGoogle = true
    },
    Row(name: "a user's sign-out revokes the refresh token and signs out of the provider, after it is shown") {
      [.launchFinds(.nothing), .signInStarts(.google), .signInWithProviderCommits(grace), .userSignsOut]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.google), .signedIn(grace.user, .fresh), .signedOut(.userRequested)]
      $0.events = [
        .initialState(.signedOut(.initial)), .signedIn(grace.user, isNewUser: false), .signedOut(.userRequested),
      ]
      $0.refresh = .stop
      $0.afterSignOut = ["revoke \(grace.refreshToken)", "sign out of google.com"]
    },
    Row(name: "a deleted account signs out of the provider and revokes nothing") {
      [.launchFinds(.nothing), .signInStarts(.google), .signInWithProviderCommits(grace), .userDeletesAccount]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.google), .signedIn(grace.user, .fresh), .signedOut(.userDeleted)]
      $0.events = [
        .initialState(.signedOut(.initial)), .signedIn(grace.user, isNewUser: false), .signedOut(.userDeleted),
      ]
      $0.refresh = .stop
      $0.afterSignOut = ["sign out of google.com"]
    },
    Row(name: "the provider ends with a session the backend ended") {
      [
        .launchFinds(.nothing), .signInStarts(.google), .signInWithProviderCommits(grace),
        .backendEndsSession(.userDisabled),
      ]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.google), .signedIn(grace.user, .fresh), .signedOut(.userDisabled)]
      $0.events = [
        .initialState(.signedOut(.initial)), .signedIn(grace.user, isNewUser: false), .signedOut(.userDisabled),
      ]
      $0.refresh = .stop
    },
    Row(name: "a newer sign-in without a provider leaves none to sign out of") {
      [
        .launchFinds(.nothing), .signInStarts(.google), .signInWithProviderCommits(grace), .signInStarts(.password),
        .signInCommits(ada),
      ]
    } expect: {
      $0.shown = [
        .signedOut(.initial), .signingIn(.google), .signedIn(grace.user, .fresh), .signingIn(.password),
        .signedIn(ada.user, .fresh),
      ]
      $0.events = [
        .initialState(.signedOut(.initial)), .signedIn(grace.user, isNewUser: false),
        .signedIn(ada.user, isNewUser: false),
      ]
      $0.refresh = .start(afterFailures: 0)
      $0.user = ada.user
    },
    Row(name: "a provider restored beside a session it signed in is the session's") {
      [.restoreStarts, .restoreReads(.session(grace, isFresh: true)), .providersRestored]
    } expect: {
      $0.shown = [.signedIn(grace.user, .fresh)]
      $0.events = [.initialState(.signedIn(grace.user, .fresh))]
      $0.refresh = .start(afterFailures: 0)
      $0.user = grace.user
      $0.hasGoogle = true
    },
    Row(name: "a provider restored beside another provider's session is not the session's") {
      [.restoreStarts, .restoreReads(.session(ada, isFresh: true)), .providersRestored]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh)]
      $0.events = [.initialState(.signedIn(ada.user, .fresh))]
      $0.refresh = .start(afterFailures: 0)
      $0.user = ada.user
    },
    Row(name: "a restore overtaken by a sign-in settles the launch beneath it and shows nothing") {
      [.restoreStarts, .signInStarts(.google), .restoreReads(.session(ada, isFresh: true)), .signInCommits(grace)]
    } expect: {
      $0.shown = [.signingIn(.google), .signedIn(grace.user, .fresh)]
      $0.events = [.signedIn(grace.user, isNewUser: false)]
      $0.refresh = .start(afterFailures: 0)
      $0.user = grace.user
    },
    Row(name: "a launch read happens once, whoever asks first") {
      [.launchFinds(.session(ada, isFresh: true)), .launchFinds(.nothing)]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh)]
      $0.events = [.initialState(.signedIn(ada.user, .fresh))]
      $0.refresh = .start(afterFailures: 0)
      $0.user = ada.user
    },
    Row(name: "an account change proceeds under the identity it started with") {
      [.launchFinds(.session(ada, isFresh: true)), .accountChangeStarts, .accountChangeStored(adaRenamed)]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh), .signedIn(adaRenamed.user, .fresh)]
      $0.events = [.initialState(.signedIn(ada.user, .fresh)), .userUpdated(adaRenamed.user)]
      $0.refresh = .start(afterFailures: 0)
      $0.user = adaRenamed.user
    },
    Row(name: "an account change that lands after another sign-in is superseded") {
      [
        .launchFinds(.session(ada, isFresh: true)), .accountChangeStarts, .signInStarts(.google),
        .signInCommits(grace), .accountChangeStored(adaRenamed),
      ]
    } expect: {
      $0.shown = [.signedIn(ada.user, .fresh), .signingIn(.google), .signedIn(grace.user, .fresh)]
      $0.events = [.initialState(.signedIn(ada.user, .fresh)), .signedIn(grace.user, isNewUser: false)]
      $0.refresh = .start(afterFailures: 0)
      $0.superseded = 1
      $0.user = grace.user
    },
    Row(name: "a sign-in in flight at shutdown cannot commit") {
      [.launchFinds(.nothing), .signInStarts(.password), .shutDown, .signInCommits(ada)]
    } expect: {
      $0.shown = [.signedOut(.initial), .signingIn(.password)]
      $0.events = [.initialState(.signedOut(.initial))]
      $0.refresh = .stop
    },
    Row(name: "nothing is shown after shutdown, but busy still ends") {
      [.launchFinds(.nothing), .operationStarts, .shutDown, .signInStarts(.password), .operationEnds(nil)]
    } expect: {
      $0.shown = [.signedOut(.initial)]
      $0.busy = [true, false]
      $0.events = [.initialState(.signedOut(.initial))]
      $0.refresh = .stop
    },
  ]

  @Test(arguments: rows) func eachRuleShowsWhatItSays(_ row: Row) {
    var expected = Outcome()
    row.expect(&expected)
    let outcome = Self.run(row.steps())
    #expect(outcome.shown == expected.shown)
    #expect(outcome.busy == expected.busy)
    #expect(outcome.events.map(\.kind) == expected.events.map(\.kind))
    #expect(outcome.refresh == expected.refresh)
    #expect(outcome.endedBy == expected.endedBy)
    #expect(outcome.messages == expected.messages)
    #expect(outcome.superseded == expected.superseded)
    #expect(outcome.user == expected.user)
    #expect(outcome.clearedStore == expected.clearedStore)
    #expect(outcome.hasGoogle == expected.hasGoogle)
    #expect(outcome.afterSignOut == expected.afterSignOut)
  }

  /// Runs `steps` on a new machine, performing each action the way `Auth` does.
  static func run(_ steps: [Step]) -> Outcome {
    var machine = SessionStateMachine()
    var outcome = Outcome()
    var attempts: [SessionStateMachine.SignInAttempt] = []
    var refresh: SessionStateMachine.RefreshAttempt?
    var restore: SessionStateMachine.RestoreAttempt?
    var changeIdentity: SessionStateMachine.Identity?
    func record(_ effects: [SessionStateMachine.Effect]) {
      for effect in effects {
        switch effect {
        case .cancelRefreshInFlight: break
        case .stopProactiveRefresh: outcome.refresh = .stop
        case .clearStore: outcome.clearedStore = true
        case .startProactiveRefresh: outcome.refresh = .start(afterFailures: machine.failedRefreshes)
        case .publish(let update):
          if let state = update.state { outcome.shown.append(state) }
          if let busy = update.isBusy { outcome.busy.append(busy) }
          if let event = update.event { outcome.events.append(event) }
          if case .set(let message) = update.errorMessage { outcome.messages.append(message) }
        case .revokeRefreshToken(let token): outcome.afterSignOut.append("revoke \(token)")
        case .signOutOfProvider(let provider):
          outcome.afterSignOut.append(provider === Google.provider ? "sign out of google.com" : "sign out of another")
        }
      }
    }
    func record(_ step: SessionStateMachine.RestoreStep) {
      switch step {
      case .read(let effects), .finished(_, let effects), .failed(_, let effects): record(effects)
      case .checkCredential, .refreshing: break
      }
    }
    func record(_ verdict: SessionStateMachine.Verdict) {
      switch verdict {
      case .proceed(let effects): record(effects)
      case .superseded: outcome.superseded += 1
      }
    }
    for step in steps {
      switch step {
      case .launchFinds(let read):
        _ = machine.beginLaunchRead()
        record(machine.launchRead(read))
        record(machine.showSettledLaunch())
      case .signInStarts(let provider):
        let (attempt, effects) = machine.signInStarted(provider)
        attempts.append(attempt)
        record(effects)
      case .signInCommits(let session):
        record(machine.signInCommitted(attempts.last!, session, isNewUser: false))
      case .firstSignInCommits(let session):
        record(machine.signInCommitted(attempts.first!, session, isNewUser: false))
      case .signInWithProviderCommits(let session):
        record(machine.signInCommitted(attempts.last!, session, isNewUser: false, provider: Google.provider))
      case .providersRestored:
        machine.providersRestored([.google: Google.provider])
      case .backendEndsSession(let reason):
        record(machine.sessionEnded(reason, byUser: false))
      case .signInFails:
        record(machine.signInFailed(attempts.last!))
      case .userSignsOut:
        record(machine.sessionEnded(.userRequested, byUser: true))
      case .userDeletesAccount:
        record(machine.sessionEnded(.userDeleted, byUser: true))
      case .refreshStarts:
        guard let (attempt, effects) = machine.refreshStarted() else { continue }
        refresh = attempt
        record(effects)
      case .refreshSucceeds(let session):
        record(machine.refreshSucceeded(refresh!, session))
      case .refreshFails(let code):
        switch machine.refreshFailed(refresh!, AuthError(code, "offline")) {
        case .dropped: break
        case .endsSession(let reason): outcome.endedBy = reason
        case .handled(let effects): record(effects)
        }
      case .operationStarts:
        record(try! machine.operationStarted())
      case .operationEnds(let code):
        record(machine.operationEnded(failure: code.map { AuthError($0, "failed") }))
      case .restoreStarts:
        let (attempt, next) = machine.restoreStarted(checking: [])
        restore = attempt
        record(next)
      case .restoreStartsCheckingGoogle:
        let (attempt, next) = machine.restoreStarted(checking: [.google])
        restore = attempt
        record(next)
      case .restoreReads(let read):
        record(machine.restoreRead(&restore!, read))
      case .providerAnswers(let state):
        record(machine.restoreCredentialAnswered(&restore!, state))
      case .restoreRefreshEnds:
        record(machine.restoreRefreshEnded(restore!))
      case .accountChangeStarts:
        changeIdentity = machine.identity
      case .accountChangeStored(let session):
        record(machine.accountChanged(changeIdentity!, session, changed: true, tokensReplaced: false))
      case .shutDown:
        record(machine.shutDown())
      }
    }
    outcome.user = machine.signedInUser
    outcome.hasGoogle = machine.signedInProvider.map { $0 === Google.provider } ?? false
    return outcome
  }
}

extension AuthEvent {
  /// The event without its payload's details (an error's message), for comparing rows.
  fileprivate var kind: String {
    switch self {
    case .failed(let error): "failed(\(error.code))"
    default: description
    }
  }
}
