import Testing

@testable import SignInREPL

@Suite struct KeyDecoderTests {
  static func keys(_ bytes: [UInt8]) -> [Key] {
    var decoder = KeyDecoder()
    return bytes.compactMap { decoder.feed($0) }
  }

  @Test func decodesPrintableAndControlKeys() {
    #expect(Self.keys(Array("ab".utf8)) == [.character("a"), .character("b")])
    #expect(Self.keys([13, 10, 9, 127, 8]) == [.enter, .enter, .tab, .backspace, .backspace])
    #expect(
      Self.keys([1, 5, 3, 4, 23, 11, 21, 12]) == [
        .home, .end, .interrupt, .endOfInput, .deleteWord, .deleteToEnd, .deleteToStart, .clearScreen,
      ])
  }

  @Test func decodesArrowHomeEndAndDeleteSequencesInEveryCommonForm() {
    let esc: UInt8 = 27
    #expect(Self.keys([esc, 91, 65, esc, 91, 66, esc, 91, 67, esc, 91, 68]) == [.up, .down, .right, .left])
    #expect(Self.keys([esc, 79, 72, esc, 79, 70]) == [.home, .end])
    #expect(Self.keys([esc, 91, 49, 126, esc, 91, 52, 126, esc, 91, 51, 126]) == [.home, .end, .delete])
    #expect(Self.keys([esc, 91, 49, 59, 53, 68, esc, 91, 49, 59, 53, 67]) == [.wordLeft, .wordRight])
    #expect(Self.keys([esc, 127]) == [.deleteWord])
  }

  @Test func decodesMultiByteCharactersWhole() {
    #expect(Self.keys(Array("é✓😀".utf8)) == [.character("é"), .character("✓"), .character("😀")])
  }

  @Test func ignoresUnknownSequencesWithoutLosingTheNextKey() {
    #expect(Self.keys([27, 91, 50, 48, 48, 126, 97]) == [.ignored, .character("a")])
    #expect(Self.keys([0xC3, 97]) == [.character("a")])
  }
}
