import SignInConcurrency
import SignInTestSupport
import Testing

@Suite(.timeLimit(.minutes(3)))
struct BroadcasterTests {
  @Test func replaysCurrentValueToNewSubscriber() async {
    let broadcaster = Broadcaster(replaying: 0)
    broadcaster.send(7)
    var iterator = broadcaster.subscribe().makeAsyncIterator()
    #expect(await iterator.next() == 7)
    broadcaster.send(8)
    #expect(await iterator.next() == 8)
  }

  @Test func aValueBuiltOnDemandIsBuiltOnlyWhileSomeoneSubscribes() async {
    let broadcaster = Broadcaster<Int>(bufferingNewest: 1)
    var builds = 0
    broadcaster.send {
      builds += 1
      return 1
    }
    #expect(builds == 0)
    var iterator = broadcaster.subscribe().makeAsyncIterator()
    broadcaster.send {
      builds += 1
      return 2
    }
    #expect(builds == 1)
    #expect(await iterator.next() == 2)
  }

  @Test func replayingFromTheFirstValueReplaysNothingBeforeIt() async {
    let broadcaster = Broadcaster(replayingFromFirstValue: Int?.self)
    #expect(broadcaster.latest == nil)
    var early = broadcaster.subscribe().makeAsyncIterator()
    broadcaster.send(nil)
    #expect(await early.next() == .some(nil))
    var late = broadcaster.subscribe().makeAsyncIterator()
    #expect(await late.next() == .some(nil))
    broadcaster.send(3)
    #expect(await early.next() == .some(3))
    #expect(await late.next() == .some(3))
  }

  @Test func replayAndLiveValuesAreNeitherMissedNorDuplicatedNorReordered() async {
    // Given subscribers that register while values are being sent from another task,
    let broadcaster = Broadcaster(replaying: 0)
    let last = 2_000
    let sender = Task.detached {
      for value in 1...last { broadcaster.send(value) }
    }
    var recorders: [Recorder<Int>] = []
    for _ in 0..<50 {
      recorders.append(Recorder.start(broadcaster.subscribe()))
      await Task.yield()
    }
    await sender.value
    broadcaster.finish()
    // then each one saw a strictly increasing run ending at the last value: its replay was the
    // value current at registration, and nothing came before it, twice, or out of order.
    for recorder in recorders {
      await recorder.waitForFinish()
      let values = recorder.values
      #expect(values.last == last)
      #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    }
  }

  @Test func everySubscriberSeesTheSameTotalOrder() async {
    // Sent from two tasks at once: whichever order the lock picked, all subscribers agree.
    let broadcaster = Broadcaster<Int>(bufferingNewest: 10_000)
    let recorders = (0..<8).map { _ in Recorder.start(broadcaster.subscribe()) }
    await withTaskGroup(of: Void.self) { group in
      for base in [0, 1_000_000] {
        group.addTask { for value in 0..<1_000 { broadcaster.send(base + value) } }
      }
    }
    broadcaster.finish()
    for recorder in recorders { await recorder.waitForFinish() }
    let first = recorders[0].values
    #expect(first.count == 2_000)
    for recorder in recorders { #expect(recorder.values == first) }
  }

  @Test func slowSubscriberIsConflatedToNewestValueAndNeverBlocksThePublisher() async {
    let broadcaster = Broadcaster(replaying: 0)
    let stream = broadcaster.subscribe()
    // The subscriber does not iterate while 100,000 values go out: send never waits for it.
    for value in 1...100_000 { broadcaster.send(value) }
    broadcaster.finish()
    var received: [Int] = []
    for await value in stream { received.append(value) }
    #expect(received == [100_000])
  }

  @Test func subscriberIsRemovedWhenItStopsIterating() async {
    let broadcaster = Broadcaster(replaying: 0)
    for await value in broadcaster.subscribe() {
      #expect(value == 0)
      #expect(broadcaster.subscriberCount == 1)
      break
    }
    #expect(broadcaster.subscriberCount == 0)
  }

  @Test func subscriberIsRemovedWhenItsTaskIsCancelled() async {
    let broadcaster = Broadcaster(replaying: 0)
    let recorders = (0..<100).map { _ in Recorder.start(broadcaster.subscribe()) }
    for recorder in recorders { await recorder.wait(for: 0) }
    #expect(broadcaster.subscriberCount == 100)
    for recorder in recorders { recorder.cancel() }
    for recorder in recorders { await recorder.waitForFinish() }
    #expect(broadcaster.subscriberCount == 0)
  }

  @Test func cancellingSomeSubscribersKeepsDeliveringToTheRest() async {
    // Subscribers leave from the front, the middle and the end of the broadcaster's list;
    // every one that stays still gets every later value.
    let broadcaster = Broadcaster<Int>(bufferingNewest: 100)
    let recorders = (0..<10).map { _ in Recorder.start(broadcaster.subscribe()) }
    broadcaster.send(1)
    for recorder in recorders { await recorder.wait(for: 1) }
    let leaving: Set = [0, 4, 5, 9]
    for index in leaving.sorted() { recorders[index].cancel() }
    for index in leaving.sorted() { await recorders[index].waitForFinish() }
    #expect(broadcaster.subscriberCount == 6)
    broadcaster.send(2)
    broadcaster.send(3)
    broadcaster.finish()
    for (index, recorder) in recorders.enumerated() where !leaving.contains(index) {
      await recorder.waitForFinish()
      #expect(recorder.values == [1, 2, 3])
    }
  }

  @Test func finishEndsEveryStreamAndLaterSubscribersGetTheLastValue() async {
    let broadcaster = Broadcaster(replaying: "a")
    let recorder = Recorder.start(broadcaster.subscribe())
    broadcaster.send("b")
    broadcaster.finish()
    await recorder.waitForFinish()
    #expect(recorder.values.last == "b")
    var late: [String] = []
    for await value in broadcaster.subscribe() { late.append(value) }
    #expect(late == ["b"])
    broadcaster.send("c")
    #expect(broadcaster.latest == "b")
  }

  @Test func nonReplayingBroadcasterDropsOldestBeyondItsBuffer() async {
    let broadcaster = Broadcaster<Int>(bufferingNewest: 3)
    broadcaster.send(0)
    let stream = broadcaster.subscribe()
    for value in 1...10 { broadcaster.send(value) }
    broadcaster.finish()
    var received: [Int] = []
    for await value in stream { received.append(value) }
    #expect(received == [8, 9, 10])
  }
}
