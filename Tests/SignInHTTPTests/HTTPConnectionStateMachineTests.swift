import Foundation
import SignInHTTP
import Testing

/// The connection rules of the one loopback server, without a socket or a clock: each event
/// with the instant it happened at, and the action that follows.
@Suite struct HTTPConnectionStateMachineTests {
  typealias Machine = HTTPConnectionStateMachine<ContinuousClock.Instant>

  static let start = ContinuousClock.now
  static func at(_ seconds: Double) -> ContinuousClock.Instant { start.advanced(by: .seconds(seconds)) }

  static let settings = Machine.Settings(
    limits: HTTPRequestParser.Limits(headBytes: 1024, headerCount: 10, bodyBytes: 64), readDeadline: .seconds(10),
    writeDeadline: .seconds(30),
    rejected: { PollingHTTPServer.Response(status: $0.status, contentType: "text/plain", body: Data($0.reason.utf8)) })

  static func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }
  static func reply(_ body: String = "ok", delivery: PollingHTTPServer.Delivery = .whole) -> PollingHTTPServer.Response
  {
    PollingHTTPServer.Response(status: 200, contentType: "text/plain", body: Data(body.utf8), delivery: delivery)
  }

  /// Writes everything pending, as a socket that takes it all would, and returns the bytes and
  /// the action after them.
  static func drain(_ machine: inout Machine, at now: ContinuousClock.Instant) -> (String, Machine.Action) {
    let output = Array(machine.pendingOutput)
    return (String(decoding: output, as: UTF8.self), machine.wrote(output.count, at: now))
  }

  @Test func aRequestInPiecesStartsTheHandlerOnceWhole() {
    var machine = Machine(settings: Self.settings, openedAt: Self.at(0))
    #expect(machine.deadline == Self.at(10))
    #expect(machine.received(Self.bytes("GET /a HT"), at: Self.at(1)) == .none)
    #expect(machine.hasRequestInProgress)
    guard case .startHandler(let request) = machine.received(Self.bytes("TP/1.1\r\n\r\n"), at: Self.at(2)) else {
      Issue.record("no request")
      return
    }
    #expect(request.target == "/a")
    #expect(machine.isAnswering && machine.deadline == nil)
  }

  @Test func anIdleConnectionClosesAtTheReadDeadlineAndAHalfRequestGets408() {
    var idle = Machine(settings: Self.settings, openedAt: Self.at(0))
    #expect(idle.deadlinePassed(at: Self.at(9.9)) == .none)
    #expect(idle.deadlinePassed(at: Self.at(10)) == .close)
    #expect(idle.isClosed)

    var half = Machine(settings: Self.settings, openedAt: Self.at(0))
    _ = half.received(Self.bytes("POST /a HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc"), at: Self.at(1))
    #expect(half.deadlinePassed(at: Self.at(10)) == .write)
    let (written, after) = Self.drain(&half, at: Self.at(10))
    #expect(written.hasPrefix("HTTP/1.1 408 "))
    #expect(after == .close)
  }

  @Test func aRefusedRequestIsAnsweredWithItsStatusAndCloses() {
    var machine = Machine(settings: Self.settings, openedAt: Self.at(0))
    #expect(machine.received(Self.bytes("GET /a HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), at: Self.at(1)) == .write)
    let (written, after) = Self.drain(&machine, at: Self.at(1))
    #expect(written.hasPrefix("HTTP/1.1 400 "))
    #expect(after == .close)
  }

  @Test func aKeptAliveConnectionReadsThePipelinedNextRequestWithAFreshDeadline() {
    var machine = Machine(settings: Self.settings, openedAt: Self.at(0))
    _ = machine.received(Self.bytes("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n"), at: Self.at(1))
    #expect(machine.replied(Self.reply(), keepAlive: true, at: Self.at(2)) == .write)
    let (written, after) = Self.drain(&machine, at: Self.at(3))
    #expect(written.contains("Connection: keep-alive"))
    guard case .startHandler(let next) = after else {
      Issue.record("the pipelined request did not start: \(after)")
      return
    }
    #expect(next.target == "/b")
    #expect(machine.replied(Self.reply(), keepAlive: true, at: Self.at(4)) == .write)
    #expect(Self.drain(&machine, at: Self.at(5)).1 == .none)
    #expect(machine.isReading && machine.deadline == Self.at(15))
  }

  @Test func aRequestThatAsksToCloseOrAStoppingServerClosesAfterTheReply() {
    var asked = Machine(settings: Self.settings, openedAt: Self.at(0))
    _ = asked.received(Self.bytes("GET /a HTTP/1.1\r\nConnection: close\r\n\r\n"), at: Self.at(1))
    _ = asked.replied(Self.reply(), keepAlive: true, at: Self.at(2))
    let (written, after) = Self.drain(&asked, at: Self.at(2))
    #expect(written.contains("Connection: close") && after == .close)

    var stopping = Machine(settings: Self.settings, openedAt: Self.at(0))
    _ = stopping.received(Self.bytes("GET /a HTTP/1.1\r\n\r\n"), at: Self.at(1))
    #expect(stopping.stopping() == .none, "a request in flight is answered first")
    _ = stopping.replied(Self.reply(), keepAlive: false, at: Self.at(2))
    #expect(Self.drain(&stopping, at: Self.at(2)).1 == .close)
  }

  @Test func aReplyThatDoesNotDrainIsResetAtTheWriteDeadline() {
    var machine = Machine(settings: Self.settings, openedAt: Self.at(0))
    _ = machine.received(Self.bytes("GET /a HTTP/1.1\r\n\r\n"), at: Self.at(1))
    _ = machine.replied(Self.reply(String(repeating: "x", count: 1000)), keepAlive: true, at: Self.at(2))
    #expect(machine.wrote(100, at: Self.at(3)) == .write)
    #expect(machine.deadline == Self.at(32))
    #expect(machine.deadlinePassed(at: Self.at(32)) == .reset)
    #expect(machine.isClosed)
  }

  @Test func thePeerClosingEndsTheConnectionWhateverItWasDoing() {
    var reading = Machine(settings: Self.settings, openedAt: Self.at(0))
    #expect(reading.received([], at: Self.at(1)) == .close)
    var answering = Machine(settings: Self.settings, openedAt: Self.at(0))
    _ = answering.received(Self.bytes("GET /a HTTP/1.1\r\n\r\n"), at: Self.at(1))
    #expect(answering.received([], at: Self.at(2)) == .close)
    #expect(answering.replied(Self.reply(), keepAlive: true, at: Self.at(3)) == .none, "nothing is written then")
  }

  @Test func brokenDeliveriesBreakTheReplyAsTheyName() {
    func answered() -> Machine {
      var machine = Machine(settings: Self.settings, openedAt: Self.at(0))
      _ = machine.received(Self.bytes("GET /a HTTP/1.1\r\n\r\n"), at: Self.at(1))
      return machine
    }
    var reset = answered()
    #expect(reset.replied(Self.reply(delivery: .reset), keepAlive: true, at: Self.at(2)) == .reset)

    var truncated = answered()
    _ = truncated.replied(Self.reply("abcdef", delivery: .truncated(bytes: 2)), keepAlive: true, at: Self.at(2))
    let (cut, afterCut) = Self.drain(&truncated, at: Self.at(2))
    #expect(cut.contains("Content-Length: 6") && cut.hasSuffix("\r\n\r\nab") && afterCut == .close)

    var trickled = answered()
    _ = trickled.replied(
      Self.reply("abc", delivery: .trickled(bytes: 2, pause: .seconds(1))), keepAlive: true, at: Self.at(2))
    #expect(Self.drain(&trickled, at: Self.at(2)).1 == .none, "the head, then a pause")
    #expect(trickled.deadline == Self.at(3))
    #expect(trickled.deadlinePassed(at: Self.at(3)) == .write)
    #expect(Self.drain(&trickled, at: Self.at(3)).0 == "ab")
    #expect(trickled.deadlinePassed(at: Self.at(4)) == .write)
    #expect(Self.drain(&trickled, at: Self.at(4)) == ("c", .close))

    var stalled = answered()
    _ = stalled.replied(Self.reply("abcdef", delivery: .stalled(bytes: 3)), keepAlive: true, at: Self.at(2))
    #expect(Self.drain(&stalled, at: Self.at(2)).1 == .none)
    #expect(stalled.isHolding && stalled.deadline == nil)
    #expect(stalled.stopping() == .close)
  }

  @Test func aHandlerThatAnswersNothingHoldsTheConnectionUntilTheServerStops() {
    var machine = Machine(settings: Self.settings, openedAt: Self.at(0))
    _ = machine.received(Self.bytes("GET /a HTTP/1.1\r\n\r\n"), at: Self.at(1))
    #expect(machine.replied(nil, keepAlive: true, at: Self.at(2)) == .none)
    #expect(machine.isHolding && machine.deadline == nil)
    #expect(machine.stopping() == .close)
  }
}
