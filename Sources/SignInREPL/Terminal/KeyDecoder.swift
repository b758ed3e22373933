/// Turns the bytes a terminal sends in raw mode into ``Key``s: control characters, UTF-8
/// characters, and the escape sequences of arrow, Home, End and Delete keys (both the `ESC [`
/// and `ESC O` forms, and the `ESC [ n ~` forms). Feed it one byte at a time; a key is returned
/// when its last byte arrives.
///
/// - Concurrency: `Sendable` value; one decoder per input.
package struct KeyDecoder: Sendable {
  private enum Phase: Sendable {
    case ground
    case escape
    case controlSequence(parameters: [UInt8])
    case singleShift
    case utf8(bytes: [UInt8], remaining: Int)
  }

  private var phase = Phase.ground

  package init() {}

  /// The key completed by `byte`, or `nil` while a sequence is still arriving.
  package mutating func feed(_ byte: UInt8) -> Key? {
    switch phase {
    case .ground:
      return ground(byte)
    case .escape:
      switch byte {
      case UInt8(ascii: "["):
        phase = .controlSequence(parameters: [])
        return nil
      case UInt8(ascii: "O"):
        phase = .singleShift
        return nil
      case 0x7F, 0x08:
        phase = .ground
        return .deleteWord
      case UInt8(ascii: "b"):
        phase = .ground
        return .wordLeft
      case UInt8(ascii: "f"):
        phase = .ground
        return .wordRight
      default:
        phase = .ground
        return .ignored
      }
    case .controlSequence(let parameters):
      // Parameter and intermediate bytes are 0x20...0x3F; a final byte ends the sequence.
      guard (0x40...0x7E).contains(byte) else {
        phase = .controlSequence(parameters: parameters + [byte])
        return nil
      }
      phase = .ground
      return Self.controlSequence(final: byte, parameters: String(decoding: parameters, as: UTF8.self))
    case .singleShift:
      phase = .ground
      return Self.controlSequence(final: byte, parameters: "")
    case .utf8(var bytes, let remaining):
      guard byte & 0xC0 == 0x80 else {
        phase = .ground
        return ground(byte)
      }
      bytes.append(byte)
      if remaining > 1 {
        phase = .utf8(bytes: bytes, remaining: remaining - 1)
        return nil
      }
      phase = .ground
      return String(validating: bytes, as: UTF8.self).flatMap(\.first).map(Key.character) ?? .ignored
    }
  }

  private mutating func ground(_ byte: UInt8) -> Key? {
    switch byte {
    case 0x1B:
      phase = .escape
      return nil
    case 0x0D, 0x0A: return .enter
    case 0x09: return .tab
    case 0x7F, 0x08: return .backspace
    case 0x01: return .home
    case 0x05: return .end
    case 0x02: return .left
    case 0x06: return .right
    case 0x10: return .up
    case 0x0E: return .down
    case 0x17: return .deleteWord
    case 0x0B: return .deleteToEnd
    case 0x15: return .deleteToStart
    case 0x03: return .interrupt
    case 0x04: return .endOfInput
    case 0x0C: return .clearScreen
    case 0x00..<0x20: return .ignored
    case 0x20..<0x80: return .character(Character(Unicode.Scalar(byte)))
    case 0xC0..<0xE0:
      phase = .utf8(bytes: [byte], remaining: 1)
      return nil
    case 0xE0..<0xF0:
      phase = .utf8(bytes: [byte], remaining: 2)
      return nil
    case 0xF0..<0xF8:
      phase = .utf8(bytes: [byte], remaining: 3)
      return nil
    default: return .ignored
    }
  }

  private static func controlSequence(final: UInt8, parameters: String) -> Key {
    switch (Character(Unicode.Scalar(final)), parameters) {
    case ("A", _): .up
    case ("B", _): .down
    case ("C", "1;5"), ("C", "1;3"): .wordRight
    case ("D", "1;5"), ("D", "1;3"): .wordLeft
    case ("C", _): .right
    case ("D", _): .left
    case ("H", _): .home
    case ("F", _): .end
    case ("~", "1"), ("~", "7"): .home
    case ("~", "4"), ("~", "8"): .end
    case ("~", "3"): .delete
    default: .ignored
    }
  }
}
