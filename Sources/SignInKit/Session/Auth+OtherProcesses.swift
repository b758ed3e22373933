import Foundation

extension Auth {
  /// Starts, once until ``shutdown()`` (or a tenant switch, which follows the new tenant's
  /// store), the task that follows the store's changes (``SessionStore/changes()``): a sign-in,
  /// account switch, sign-out, refresh or profile change by another process that shares the store
  /// reaches this `Auth`'s streams as its own do. A store that cannot be watched is followed only
  /// when it is next read.
  ///
  /// Following is background work: on an executor of the app's own
  /// (``AuthConfiguration/taskExecutor``) it runs at `utility` priority, so one that runs higher
  /// priorities first starts it once the work in hand is done and a program that leaves at once
  /// never sets up a watch (`signin -c quit` never starts the watch's thread). On the global
  /// pool it keeps the caller's priority: there a lower one can wait behind busy work for as
  /// long as the work goes on (seen for minutes under AddressSanitizer). A store's changes start with
  /// one value once it watches, so the store is read then and a change made before the watch
  /// began is not missed.
  func followStoreChanges() {
    guard followTask == nil, machine.startsBackgroundWork else { return }
    let priority: TaskPriority? = configuration.taskExecutor == nil ? nil : .utility
    followTask = Task(executorPreference: configuration.taskExecutor, priority: priority) { [weak self, store] in
      guard !Task.isCancelled, let changes = try? store.changes() else { return }
      for await _ in changes {
        guard let self else { return }
        await self.storeChanged()
      }
    }
  }

  /// Stops following the store (before a tenant switch replaces it).
  func stopFollowingStore() {
    followTask?.cancel()
    followTask = nil
  }

  /// Reads the store after it changed and lets the machine decide what that means here. A store
  /// that cannot be read now, or that holds another tenant's session, changes nothing: the next
  /// read reports it.
  ///
  /// - Returns: whether the store could be read.
  @discardableResult
  func storeChanged() async -> Bool {
    let stored: StoredSession?
    do {
      stored = try store.load()
      if let stored { try checkTenant(ofIDToken: stored.idToken) }
    } catch {
      return false
    }
    await perform(machine.storedSessionChanged(stored, isFresh: stored.map(hasTimeLeft) ?? false))
    return true
  }

  /// Stores `updated` (new tokens or a new profile) over `previous`, the signed-in session, one
  /// generation on, and returns what was stored.
  ///
  /// When another process stored a newer generation of the same user's session meanwhile, this
  /// builds on that one instead of writing over it: what this call changed (new tokens, a new
  /// profile) is written over it, and the rest is kept as the other process stored it. When the store was cleared (a sign-out there) or holds
  /// another user, nothing is written back: this `Auth` signs out too, with
  /// ``SignOutReason/storageCleared``, leaving the store as the other process left it.
  ///
  /// - Throws: ``AuthError/Code/noCurrentUser`` after such a sign-out; storage errors.
  func persist(_ updated: StoredSession, replacing previous: StoredSession) async throws -> StoredSession {
    var writing = updated
    var owner = previous
    let bringsTokens = updated.idToken != previous.idToken || updated.refreshToken != previous.refreshToken
    let changesUser = updated.user != previous.user
    // Each round loses only to a write made since the last read: a few rounds are plenty.
    for _ in 0..<4 {
      writing.generation = owner.generation + 1
      if try store.save(writing, ifStillOwnedBy: owner) { return writing }
      guard let stored = try store.load(), stored.user.uid == previous.user.uid, stored.generation > owner.generation
      else {
        await perform(machine.storeClearedElsewhere())
        throw AuthError.clearedElsewhere
      }
      if !bringsTokens {
        writing.idToken = stored.idToken
        writing.refreshToken = stored.refreshToken
        writing.expiresAt = stored.expiresAt
        writing.signInProvider = stored.signInProvider
      }
      if !changesUser { writing.user = stored.user }
      owner = stored
    }
    throw AuthError(
      .storage,
      "The saved session kept changing while this process wrote it (other processes are writing "
        + "it too); nothing was lost. Try again.")
  }

  /// The session another process stored while this one waited for the refresh lock, when it is
  /// the same user's, newer than the one the refresh started from, and has time left: this
  /// process takes it instead of refreshing again.
  func sessionRefreshedElsewhere(since started: StoredSession) -> StoredSession? {
    guard let stored = try? store.load(), stored.user.uid == started.user.uid,
      stored.generation > started.generation, hasTimeLeft(stored)
    else { return nil }
    return stored
  }
}
