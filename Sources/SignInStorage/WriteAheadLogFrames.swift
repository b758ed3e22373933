import Foundation

/// The frames of an SQLite write-ahead log (`-wal`) as its documented file format lays them out:
/// the log's salts, and which frames of this generation of the log end a transaction.
///
/// SQLite replays a log up to the first frame whose checksum fails and silently ignores the rest,
/// so a damaged frame drops every transaction committed after it. Comparing the transactions
/// this reads with the frames SQLite accepted (``SQLiteDatabase`` does, at open) tells such a
/// loss from a sound log. Frames of an older generation (SQLite reuses a log from the start
/// without truncating it) carry other salts and are not counted; neither are the frames of a
/// transaction that never committed, which has no commit frame. Only headers are read; the
/// pages and checksums stay SQLite's business.
///
/// - Concurrency: `Sendable` value.
struct WriteAheadLogFrames: Sendable, Equatable {
  /// The log header's two salts, which every frame of this generation repeats.
  var salts: [UInt32]
  /// The 1-based numbers of this generation's frames that commit a transaction, in order.
  var commits: [Int]

  private static let headerSize = 32
  private static let frameHeaderSize = 24
  private static let magic: Set<UInt32> = [0x377f_0682, 0x377f_0683]

  /// The log at `path`, or `nil` when there is none or it is too short to hold a frame.
  static func read(_ path: String) -> WriteAheadLogFrames? {
    // Mapped, not read: a log that checkpoints could not keep short may be large, and only its
    // headers are looked at.
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
      data.count > headerSize
    else { return nil }
    return data.withUnsafeBytes { bytes in
      func word(_ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
      }
      let pageSize = Int(word(8))
      guard magic.contains(word(0)), pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
        return nil
      }
      let salts = [word(16), word(20)]
      var commits: [Int] = []
      var offset = headerSize
      var number = 1
      while offset + frameHeaderSize + pageSize <= bytes.count {
        if word(offset + 4) != 0, [word(offset + 8), word(offset + 12)] == salts { commits.append(number) }
        offset += frameHeaderSize + pageSize
        number += 1
      }
      return WriteAheadLogFrames(salts: salts, commits: commits)
    }
  }
}
