/// Fans values out to any number of `AsyncStream` subscribers, one stream per subscriber.
///
/// Two shapes:
/// - ``init(replaying:)``: each new subscriber first receives the latest value, registered in the
///   same critical section as the replay, so nothing is missed, duplicated or reordered between
///   the replay and live values. Buffers conflate to the newest value (`bufferingNewest(1)`).
/// - ``init(replayingFromFirstValue:)``: the same, but with nothing to replay until the first
///   ``send(_:)``: a subscriber that arrives before it waits for it.
/// - ``init(bufferingNewest:)``: no replay; each subscriber buffers up to `limit` values and, when
///   it falls further behind, the oldest buffered values are dropped.
///
/// `send` never blocks on a subscriber. A subscriber is removed as soon as its stream terminates:
/// its iterator is dropped (the `for await` loop ended) or its task is cancelled.
///
/// The class and ``send(_:)`` are `public` and `send` is `@inlinable` only so that each module
/// that sends compiles a copy specialized for its `Value`: Swift 6.3 does not inline an
/// `@inlinable package` body into another module, and the generic copy looks up type metadata
/// at run time on every value (about 1.5x the cost of a bare `yield`, in `signin-bench` row 1).
/// Everything else is `package`, so no one outside this package can make or reach one.
///
/// - Concurrency: `Sendable`, lock-guarded (``Locked``), any isolation. `yield` runs inside the lock (it does
///   not block, and it keeps one total order for all subscribers); `finish()` runs outside the
///   lock because it calls `onTermination`, which takes the lock.
public final class Broadcaster<Value: Sendable>: Sendable {
  @usableFromInline struct State: Sendable {
    @usableFromInline var latest: Value?
    var nextID = 0
    @usableFromInline var isFinished = false
    /// The live subscribers, in a contiguous array because `send` walks it on every value;
    /// `slots` finds a subscriber by id when it leaves.
    @usableFromInline var subscribers: ContiguousArray<(id: Int, continuation: AsyncStream<Value>.Continuation)> = []
    var slots: [Int: Int] = [:]

    init(latest: Value? = nil) { self.latest = latest }

    mutating func add(_ continuation: AsyncStream<Value>.Continuation, id: Int) {
      slots[id] = subscribers.count
      subscribers.append((id, continuation))
    }

    /// Removes a subscriber by moving the last one into its slot.
    mutating func remove(id: Int) {
      guard let slot = slots.removeValue(forKey: id) else { return }
      let last = subscribers.removeLast()
      if slot < subscribers.count {
        subscribers[slot] = last
        slots[last.id] = slot
      }
    }

    mutating func removeAll() -> [AsyncStream<Value>.Continuation] {
      defer {
        subscribers.removeAll()
        slots.removeAll()
      }
      return subscribers.map { $0.continuation }
    }
  }

  @usableFromInline let state: Locked<State>
  @usableFromInline let replays: Bool
  private let policy: AsyncStream<Value>.Continuation.BufferingPolicy

  /// A broadcaster that replays the latest value, starting with `initial`.
  package init(replaying initial: Value) {
    state = Locked(State(latest: initial))
    replays = true
    policy = .bufferingNewest(1)
  }

  /// A broadcaster that replays the latest value once one was sent; subscribers that arrive
  /// earlier start with the first value sent.
  package init(replayingFromFirstValue type: Value.Type) {
    state = Locked(State())
    replays = true
    policy = .bufferingNewest(1)
  }

  /// A broadcaster without replay, each subscriber buffering at most `limit` values.
  package init(bufferingNewest limit: Int) {
    state = Locked(State())
    replays = false
    policy = .bufferingNewest(max(1, limit))
  }

  deinit { finish() }

  /// The latest value sent (or the initial one); `nil` for a broadcaster without replay, or one
  /// replaying from its first value before that was sent.
  package var latest: Value? { state.withLock { $0.latest } }

  /// How many subscribers are registered now.
  package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

  /// A new stream: the latest value first when replaying, then every value sent from now on.
  /// After ``finish()`` the stream yields the last value (when replaying) and ends.
  package func subscribe() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: policy)
    let id = state.withLock { state in
      defer { state.nextID &+= 1 }
      return state.nextID
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { $0.remove(id: id) }
    }
    let isLive = state.withLock { state in
      if replays, let latest = state.latest { continuation.yield(latest) }
      guard !state.isFinished else { return false }
      state.add(continuation, id: id)
      return true
    }
    if !isLive { continuation.finish() }
    return stream
  }

  /// Delivers `value` to every subscriber, in the same order for all of them. Ignored after
  /// ``finish()``.
  @inlinable public func send(_ value: Value) {
    state.withLock { state in
      guard !state.isFinished else { return }
      if replays { state.latest = value }
      for subscriber in state.subscribers { subscriber.continuation.yield(value) }
    }
  }

  /// Delivers the value `make` builds to every subscriber, building it only when there is one;
  /// for a broadcaster without replay whose values cost something to build. Ignored after
  /// ``finish()``.
  @inlinable public func send(_ make: () -> Value) {
    state.withLock { state in
      guard !state.isFinished, !state.subscribers.isEmpty || replays else { return }
      let value = make()
      if replays { state.latest = value }
      for subscriber in state.subscribers { subscriber.continuation.yield(value) }
    }
  }

  /// Ends every stream; later subscribers get the replayed value, if any, and an ended stream.
  package func finish() {
    let ending = state.withLock { state in
      state.isFinished = true
      return state.removeAll()
    }
    for continuation in ending { continuation.finish() }
  }
}
