import SignInConcurrency
import SignInKit

/// How long a state change takes to reach the body of a subscriber's `for await`: published the
/// way `Auth` publishes (from an actor, queued on ``AuthStateStore`` then drained on
/// `UIStateActor`, fanned out by the `states` broadcaster), against a bare `AsyncStream` whose
/// producer yields and whose consumer resumes. Each change waits for the subscriber's
/// acknowledgement before the next, so every sample is one change's latency, never a queue.
enum PublishLatencyBench {
  /// Publishes as `Auth.perform` does.
  actor Publisher {
    let store = AuthStateStore(eventBufferLimit: 16)
    let sentAt: Locked<ContinuousClock.Instant>

    init(sentAt: Locked<ContinuousClock.Instant>) { self.sentAt = sentAt }

    func publish(_ state: AuthState) async {
      sentAt.withLock { $0 = .now }
      store.enqueue(StoreUpdate(state: state))
      await store.drain()
    }
  }

  static func run(changes: Int) async -> [BenchResult] {
    let store = await storeLatencies(changes: changes)
    let bare = await bareLatencies(changes: changes)
    let name = "1c publish latency (\(changes) changes)"
    return [
      BenchResult(
        name: name, subject: "Auth → for await, p50", value: Measure.percentile(store, 0.5),
        baselineName: "bare AsyncStream p50", baseline: Measure.percentile(bare, 0.5), unit: "µs",
        target: nil, met: nil, note: nil),
      BenchResult(
        name: name, subject: "Auth → for await, p99", value: Measure.percentile(store, 0.99),
        baselineName: "bare AsyncStream p99", baseline: Measure.percentile(bare, 0.99), unit: "µs",
        target: nil, met: nil,
        note: "one UIStateActor hop (the drain) plus the broadcaster's yield, on top of the resume"),
    ]
  }

  private static func storeLatencies(changes: Int) async -> [Double] {
    let sentAt = Locked(ContinuousClock.now)
    let publisher = Publisher(sentAt: sentAt)
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
    var acknowledged = acks.makeAsyncIterator()
    _ = await acknowledged.next()  // the replayed current state
    for index in 0..<changes {
      let state: AuthState = index.isMultiple(of: 2) ? .signedOut(.userRequested) : .signedOut(.initial)
      await publisher.publish(state)
      _ = await acknowledged.next()
    }
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
    var acknowledged = acks.makeAsyncIterator()
    for _ in 0..<changes {
      continuation.yield(.now)
      _ = await acknowledged.next()
    }
    continuation.finish()
    return await subscriber.value
  }

  private static func microseconds(_ duration: Duration) -> Double {
    Measure.milliseconds(duration) * 1000
  }
}
