import Foundation

/// An update's field mask (`updateMask=displayName,mfaConfig.state`): the fields a `PATCH`
/// changes, dotted for nested ones. Parsed with bounds, so a mask cannot be deeper or longer than
/// any resource here: at most 100 paths of at most 8 fields each, each path starting with a
/// field of the resource.
///
/// - Concurrency: `Sendable` value.
package struct FieldMask: Sendable, Equatable {
  package let paths: [[String]]

  /// The deepest path a mask may name.
  package static let maximumDepth = 8
  /// The most paths a mask may name.
  package static let maximumPaths = 100

  /// - Throws: `INVALID_ARGUMENT` naming what is wrong: an empty path, one too deep, too many,
  ///   or one that starts with a field `Resource` does not have.
  package init<Resource: WireBody>(_ text: String, of resource: Resource.Type) throws(FirebaseFailure) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count <= Self.maximumPaths else {
      throw FirebaseFailure(.invalidArgument, "updateMask names more than \(Self.maximumPaths) fields")
    }
    let fields = Set(Resource.CodingKeys.allCases.map(\.stringValue))
    var paths: [[String]] = []
    for part in parts {
      let path = part.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        .map(String.init)
      guard path.count <= Self.maximumDepth else {
        throw FirebaseFailure(
          .invalidArgument, "updateMask paths are at most \(Self.maximumDepth) fields deep")
      }
      guard path.allSatisfy({ !$0.isEmpty }), fields.contains(path[0]) else {
        throw FirebaseFailure(
          .invalidArgument,
          "updateMask names \(String(part.prefix(80))), which is not a field of this resource; name fields such "
            + "as \(fields.sorted().prefix(3).joined(separator: ", "))")
      }
      paths.append(path)
    }
    self.paths = paths
  }
}

extension WireBody {
  /// This resource with `change` applied: the fields `mask` names copied from `change` (a field
  /// `change` leaves out is cleared, as a mask means), or, with no mask, every field `change`
  /// sets. `name` and the query's fields are never changed.
  package func updated(with change: Self, mask: FieldMask?) throws(FirebaseFailure) -> Self {
    do {
      var current = try Self.object(self)
      let new = try Self.object(change)
      let untouchable = Set(Self.queryKeys.map(\.stringValue) + ["name"])
      let paths = mask?.paths ?? new.keys.sorted().map { [$0] }
      for path in paths where !untouchable.contains(path[0]) {
        Self.copy(path[...], from: new, into: &current)
      }
      let data = try JSONSerialization.data(withJSONObject: current)
      return try JSONDecoder().decode(Self.self, from: data)
    } catch let failure as FirebaseFailure {
      throw failure
    } catch {
      throw FirebaseFailure(.invalidArgument, "the update does not fit the resource: \(error)")
    }
  }

  private static func object(_ body: Self) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: JSONEncoder().encode(body)) as? [String: Any] ?? [:]
  }

  private static func copy(_ path: ArraySlice<String>, from source: [String: Any], into target: inout [String: Any]) {
    guard let head = path.first else { return }
    if path.count == 1 {
      target[head] = source[head]
      return
    }
    var inner = target[head] as? [String: Any] ?? [:]
    copy(path.dropFirst(), from: source[head] as? [String: Any] ?? [:], into: &inner)
    target[head] = inner
  }
}
