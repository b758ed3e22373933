import SignInConcurrency
import SignInKit
import Testing

@testable import SignInREPL

@Suite(.timeLimit(.minutes(3))) struct KeyboardInputTests {
  @Test func handsOutBytesInOrderIncludingTypeAhead() async {
    let keyboard = KeyboardInput()
    keyboard.push(Array("ab".utf8))
    let reader = Task { [keyboard] in [await keyboard.next(), await keyboard.next(), await keyboard.next()] }
    keyboard.push([UInt8(ascii: "c")])
    #expect(await reader.value == [97, 98, 99])
  }

  @Test func endOfInputComesAfterTheQueuedBytes() async {
    let keyboard = KeyboardInput()
    keyboard.push([1])
    keyboard.finish()
    #expect(await keyboard.next() == 1)
    #expect(await keyboard.next() == nil)
  }

  @Test func cancellingAReaderLeavesTheQueueUsable() async {
    let keyboard = KeyboardInput()
    let reader = Task { [keyboard] in await keyboard.next() }
    reader.cancel()
    #expect(await reader.value == nil)
    keyboard.push([7])
    #expect(await keyboard.next() == 7)
  }

  @Test func controlCGoesToTheInterruptHandlerWhileOneIsSet() async {
    let keyboard = KeyboardInput()
    let interrupts = Locked(0)
    keyboard.setInterruptHandler { interrupts.withLock { $0 += 1 } }
    keyboard.push([3, 65])
    #expect(interrupts.withLock { $0 } == 1)
    keyboard.setInterruptHandler(nil)
    keyboard.push([3])
    #expect(await keyboard.next() == 65)
    #expect(await keyboard.next() == 3)
  }

  @Test func aControlCTypedJustBeforeTheHandlerIsSetGoesToIt() async {
    let keyboard = KeyboardInput()
    let interrupts = Locked(0)
    // Enter has been read by the editor; Ctrl-C arrives before the command set its handler.
    keyboard.push([13, 3, 66])
    #expect(await keyboard.next() == 13)
    keyboard.setInterruptHandler { interrupts.withLock { $0 += 1 } }
    #expect(interrupts.withLock { $0 } == 1)
    keyboard.setInterruptHandler(nil)
    #expect(await keyboard.next() == 66)  // the rest of the type-ahead is kept
  }
}
