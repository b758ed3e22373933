import SignInConcurrency
import SignInKit

/// How long a state change takes to reach the body of a subscriber's `for await`: published the
/// way `Auth` publishes (from inside an actor's operation, queued on ``AuthStateStore`` then
/// drained on `UIStateActor`, fanned out by the `states` broadcaster), against a bare
/// `AsyncStream` yielded from inside an actor's operation the same way. Each change waits for the
/// subscriber's acknowledgement before the next, so every sample is one change's latency, never
/// a queue.
///
/// Both producers run their whole loop on their actor and wait for the acknowledgement there, as
/// an `Auth` operation goes on after it publishes: a driver that hopped back to the main actor
/// after every change would charge the publisher for waking the main thread, and would give the
/// bare stream a main-thread producer that no `Auth` has.
///
/// The two run in alternating rounds and each figure pools its rounds, so both meet the same
/// machine: on a small machine one run of either can land in a faster or slower scheduling mode
/// for its whole length, which compared back to back made the ratio swing between runs.
enum PublishLatencyBench {
  /// Publishes as `Auth.perform` does.
  actor StorePublisher {
    let store = AuthStateStore(eventBufferLimit: 16)

    func run(changes: Int, sentAt: Locked<ContinuousClock.Instant>, acks: AsyncStream<Void>) async {
      var acknowledged = acks.makeAsyncIterator()
      _ = await acknowledged.next()  // the replayed current state
      for index in 0..<changes {
        let state: AuthState = index.isMultiple(of: 2) ? .signedOut(.userRequested) : .signedOut(.initial)
        sentAt.withLock { $0 = .now }
        store.enqueue(StoreUpdate(state: state))
        await store.drain()
        _ = await acknowledged.next()
      }
    }
  }

  /// Yields to a bare stream from an actor.
  actor BarePublisher {
    func run(
      changes: Int, continuation: AsyncStream<ContinuousClock.Instant>.Continuation,
      acks: AsyncStream<Void>
    ) async {
      var acknowledged = acks.makeAsyncIterator()
      for _ in 0..<changes {
        continuation.yield(.now)
        _ = await acknowledged.next()
      }
      continuation.finish()
    }
  }

  static func run(changes: Int, rounds: Int = 10) async -> [BenchResult] {
    var store: [Double] = []
    var bare: [Double] = []
    for _ in 0..<rounds {
      store += await storeLatencies(changes: changes / rounds)
      bare += await bareLatencies(changes: changes / rounds)
    }
    let name = "1c publish latency (\(changes) changes)"
    return [
      BenchResult(
        name: name, subject: "Auth → for await, p50", value: Measure.percentile(store, 0.5),
        baselineName: "bare AsyncStream p50", baseline: Measure.percentile(bare, 0.5), unit: "µs",
        target: "≤ 1.5x", met: Measure.percentile(store, 0.5) <= 1.5 * Measure.percentile(bare, 0.5),
        note: nil),
      BenchResult(
        name: name, subject: "Auth → for await, p99", value: Measure.percentile(store, 0.99),
        baselineName: "bare AsyncStream p99", baseline: Measure.percentile(bare, 0.99), unit: "µs",
        target: nil, met: nil,
        note: "one UIStateActor hop (the drain) plus the broadcaster's yield, on top of the resume"),
    ]
  }

  private static func storeLatencies(changes: Int) async -> [Double] {
    let sentAt = Locked(ContinuousClock.now)
    let publisher = StorePublisher()
    let (acks, ack) = AsyncStream<Void>.makeStream()
    let states = publisher.store.states.subscribe()
    let subscriber = Task.detached {
      var samples: [Double] = []
      samples.reserveCapacity(changes)
      var isReplay = true
      for await _ in states {
        let now = ContinuousClock.now
        if isReplay {
          isReplay = false
        } else {
          samples.append(microseconds(now - sentAt.withLock { $0 }))
        }
        ack.yield()
        if samples.count == changes { break }
      }
      return samples
    }
    await publisher.run(changes: changes, sentAt: sentAt, acks: acks)
    return await subscriber.value
  }

  private static func bareLatencies(changes: Int) async -> [Double] {
    let (stream, continuation) = AsyncStream<ContinuousClock.Instant>.makeStream()
    let (acks, ack) = AsyncStream<Void>.makeStream()
    let subscriber = Task.detached {
      var samples: [Double] = []
      samples.reserveCapacity(changes)
      for await sent in stream {
        samples.append(microseconds(ContinuousClock.now - sent))
        ack.yield()
        if samples.count == changes { break }
      }
      return samples
    }
    await BarePublisher().run(changes: changes, continuation: continuation, acks: acks)
    return await subscriber.value
  }

  private static func microseconds(_ duration: Duration) -> Double {
    Measure.milliseconds(duration) * 1000
  }
}
