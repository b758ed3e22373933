import Foundation
import SignInWire
import Testing

/// The endpoint list checked against Google's own description of the API: the discovery
/// documents of Identity Toolkit v1, v2 and v3 that PyPI's `google-api-python-client` ships.
/// Every path and method must be one Google lists, every field a body sends must be in that
/// call's request schema (or its query parameters) with a compatible type, every field a reply
/// type reads must be in the response of some call that returns it, and every enum value we
/// write must be one Google names; or the route, the field or the service is listed here or on
/// its type (``WireBody/unlistedFields``) with the reason.
///
/// `.ci/run` points `SIGNINKIT_DISCOVERY_DOCUMENTS` at the documents of a pinned release and
/// sets `SIGNINKIT_REQUIRE_DISCOVERY=1`; without the documents (a fresh machine with no PyPI),
/// the suite is skipped unless that is set.
@Suite(.enabled(if: DiscoveryDocuments.folder != nil || DiscoveryDocuments.required))
struct DiscoveryConformanceTests {
  /// Services Google publishes no discovery document for here, with why they are not checked.
  static let unlistedServices: [EndpointPath.Service: String] = [
    .secureToken: "Secure Token has no discovery document in google-api-python-client; its wire is the "
      + "documented refresh grant (firebase.google.com/docs/reference/rest/auth, and the iOS SDK's JSON form)",
    .emulator: "the Firebase Auth emulator's own routes (firebase-tools src/emulator/auth), which no Google "
      + "service serves",
  ]

  @Test func everyEndpointFieldAndValueIsOneGoogleDescribes() throws {
    let directory = try #require(DiscoveryDocuments.folder, "set SIGNINKIT_DISCOVERY_DOCUMENTS (see .ci/run)")
    let check = try DiscoveryCheck(directory: URL(fileURLWithPath: directory))
    check.run()
    for problem in check.problems { Issue.record("\(problem)") }
    print(check.problems.joined(separator: "\n"))
    print(check.report)
    #expect(check.checkedPaths > 0 && check.checkedFields > 0)
  }

  /// The reCAPTCHA Enterprise requests `FirebaseBackend` sends, as its golden files record them:
  /// each call one Google lists, each query and body field one its call takes, and each value of
  /// an enum field (`clientType`, `recaptchaVersion`) one Google names.
  @Test func theRecaptchaGoldenRequestsAreOnesGoogleDescribes() throws {
    let directory = try #require(DiscoveryDocuments.folder, "set SIGNINKIT_DISCOVERY_DOCUMENTS (see .ci/run)")
    let check = try DiscoveryCheck(directory: URL(fileURLWithPath: directory))
    let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("SignInKitTests/Backends/Firebase/Golden")
    let names = try FileManager.default.contentsOfDirectory(atPath: golden.path)
      .filter { $0.lowercased().contains("recaptcha") }.sorted()
    #expect(names.count >= 4, "\(names)")
    for name in names {
      let problems = try check.checkRecorded(String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8))
      for problem in problems { Issue.record("\(name): \(problem)") }
    }
  }
}

/// Where the discovery documents are, and whether the check must run.
enum DiscoveryDocuments {
  static let folder = ProcessInfo.processInfo.environment["SIGNINKIT_DISCOVERY_DOCUMENTS"]
  static let required = ProcessInfo.processInfo.environment["SIGNINKIT_REQUIRE_DISCOVERY"] == "1"
}

/// One walk of the endpoint list against the documents.
final class DiscoveryCheck {
  struct Method {
    let id: String
    let httpMethod: String
    let request: String?
    let response: String?
    let queryParameters: Set<String>
    /// Each parameter's description (`enum` among it), by name.
    let parameters: [String: [String: Any]]
  }

  private var methods: [String: [Method]] = [:]  // by version: "v1", "v2", "v3"
  private var schemas: [String: [String: Any]] = [:]
  private(set) var problems: [String] = []
  private(set) var exceptions: [String] = []
  private(set) var checkedPaths = 0
  private(set) var checkedFields = 0
  private(set) var revisions: [String] = []
  /// The response schemas of the calls that return each reply type.
  private var replySchemas: [String: (type: any WireBody.Type, schemas: [String])] = [:]
  private var pathsByVersionMethod: [String: [String: Method]] = [:]
  /// The calls of Google's documents that matched one of ours.
  private var matched: Set<String> = []

  init(directory: URL) throws {
    for version in ["v1", "v2", "v3"] {
      let data = try Data(contentsOf: directory.appendingPathComponent("identitytoolkit.\(version).json"))
      let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
      revisions.append("\(version) \(document["revision"] as? String ?? "?")")
      for (name, schema) in document["schemas"] as? [String: [String: Any]] ?? [:] {
        schemas[name] = schema
      }
      var table: [String: Method] = [:]
      func walk(_ resources: [String: Any]) {
        for case let resource as [String: Any] in resources.values {
          for case let method as [String: Any] in (resource["methods"] as? [String: Any] ?? [:]).values {
            let path = (method["flatPath"] ?? method["path"]) as? String ?? ""
            let parameters = method["parameters"] as? [String: [String: Any]] ?? [:]
            let entry = Method(
              id: method["id"] as? String ?? "", httpMethod: method["httpMethod"] as? String ?? "",
              request: (method["request"] as? [String: Any])?["$ref"] as? String,
              response: (method["response"] as? [String: Any])?["$ref"] as? String,
              queryParameters: Set(parameters.filter { $0.value["location"] as? String == "query" }.keys),
              parameters: parameters)
            table["\(entry.httpMethod) \(Self.normalized(path))"] = entry
          }
          walk(resource["resources"] as? [String: Any] ?? [:])
        }
      }
      walk(document["resources"] as? [String: Any] ?? [:])
      pathsByVersionMethod[version] = table
    }
  }

  /// `v1/projects/{projectsId}/accounts` and `v1/projects/{project}/accounts` alike.
  static func normalized(_ path: String) -> String {
    var result = ""
    var inPlaceholder = false
    for character in path {
      if character == "{" {
        inPlaceholder = true
        result += "{}"
      } else if character == "}" {
        inPlaceholder = false
      } else if !inPlaceholder {
        result.append(character)
      }
    }
    return result
  }

  func run() {
    for endpoint in FirebaseAPI.all {
      for path in endpoint.paths {
        check(endpoint, on: path)
      }
    }
    for (name, entry) in replySchemas.sorted(by: { $0.key < $1.key }) {
      checkReply(entry.type, named: name, against: entry.schemas)
    }
  }

  /// Google's v1 and v2 calls that no endpoint of ours describes.
  var lacking: [String] {
    ["v1", "v2"].flatMap { version in
      (pathsByVersionMethod[version] ?? [:]).filter { !matched.contains($0.value.id) }.keys.map { "\($0)" }
    }.sorted()
  }

  var report: String {
    """
    Discovery check (\(revisions.joined(separator: ", "))): \(checkedPaths) paths and \(checkedFields) fields \
    checked, \(problems.count) problems.
    Google's v1 and v2 calls we do not describe (\(lacking.count)):
    \(lacking.map { "  - \($0)" }.joined(separator: "\n"))
    Exceptions, with their reasons:
    \(Set(exceptions).sorted().map { "  - \($0)" }.joined(separator: "\n"))
    """
  }

  private func check(_ endpoint: any EndpointDescription, on path: EndpointPath) {
    let signature = "\(endpoint.method.rawValue) \(path.emulatorTemplate)"
    if let reason = DiscoveryConformanceTests.unlistedServices[path.service] {
      exceptions.append("\(path.service): \(reason)")
      return
    }
    if let reason = path.unlistedReason {
      exceptions.append("\(signature): \(reason)")
      return
    }
    let version = path.service == .relyingParty ? "v3" : String(path.template.description.prefix(2))
    guard
      let method = pathsByVersionMethod[version]?[
        "\(endpoint.method.rawValue) \(Self.normalized(path.template.description))"]
    else {
      problems.append("\(signature): Google's \(version) document lists no such call")
      return
    }
    checkedPaths += 1
    matched.insert(method.id)
    if let response = method.response {
      let name = String(describing: endpoint.replyType)
      replySchemas[name, default: (endpoint.replyType, [])].schemas.append(response)
    }
    // The v3 aliases take the v1 bodies, as the emulator does: only their path is Google's to check.
    guard path.service == .identityToolkit else { return }
    let (schema, unlisted, queryKeys) = Self.describe(endpoint.bodyType)
    for (field, kind) in schema.fields.sorted(by: { $0.key < $1.key }) {
      if queryKeys.contains(field) {
        checkedFields += 1
        if !method.queryParameters.contains(field), unlisted[field] == nil {
          problems.append("\(signature): the query parameter \(field) is not one Google lists")
        }
        continue
      }
      guard let request = method.request, let properties = schemas[request]?["properties"] as? [String: Any],
        let property = properties[field] as? [String: Any]
      else {
        if let reason = unlisted[field] {
          exceptions.append("\(endpoint.bodyType).\(field) (sent to \(method.id)): \(reason)")
        } else {
          problems.append("\(signature): the body sends \(field), which \(method.request ?? "no request schema") lacks")
        }
        continue
      }
      compare(kind, with: property, at: "\(signature) \(field)")
    }
  }

  /// The problems of one request recorded as `curl -X METHOD 'URL' … --data-raw 'JSON'`.
  func checkRecorded(_ curl: String) throws -> [String] {
    let words = curl.split(separator: " ", maxSplits: 3).map(String.init)
    let method = words[2]
    let address = try #require(curl.split(separator: "'").dropFirst().first.map(String.init))
    let url = try #require(URLComponents(string: address))
    let path = String(url.path.dropFirst())
    let version = String(path.prefix(2))
    guard let call = pathsByVersionMethod[version]?["\(method) \(Self.normalized(path))"] else {
      return ["Google's \(version) document lists no \(method) \(path)"]
    }
    var problems: [String] = []
    for item in url.queryItems ?? [] where item.name != "key" && !call.queryParameters.contains(item.name) {
      problems.append("\(call.id) takes no query parameter \(item.name)")
    }
    let properties = call.request.flatMap { schemas[$0]?["properties"] as? [String: Any] } ?? [:]
    var fields: [String: Any] = [:]
    if let range = curl.range(of: "--data-raw '") {
      let json = curl[range.upperBound...].dropLast(curl.hasSuffix("'\n") ? 2 : 1)
      fields = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
    }
    for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
      guard let property = properties[field] as? [String: Any] else {
        problems.append("\(call.request ?? call.id) has no field \(field)")
        continue
      }
      if let allowed = property["enum"] as? [String], let text = value as? String, !allowed.contains(text) {
        problems.append("\(call.id) \(field) is \(text), not one of \(allowed)")
      }
    }
    for item in url.queryItems ?? [] {
      if let allowed = call.parameters[item.name]?["enum"] as? [String], let value = item.value,
        !allowed.contains(value)
      {
        problems.append("\(call.id) query \(item.name) is \(value), not one of \(allowed)")
      }
    }
    return problems
  }

  private func checkReply(_ type: any WireBody.Type, named name: String, against responses: [String]) {
    let (schema, unlisted, _) = Self.describe(type)
    for (field, kind) in schema.fields.sorted(by: { $0.key < $1.key }) {
      let found = responses.compactMap { (schemas[$0]?["properties"] as? [String: Any])?[field] as? [String: Any] }
      guard let property = found.first else {
        if let reason = unlisted[field] {
          exceptions.append("\(name).\(field) (read in a reply): \(reason)")
        } else {
          problems.append("\(name) reads \(field), which no call that returns it sends (\(Set(responses).sorted()))")
        }
        continue
      }
      compare(kind, with: property, at: "\(name).\(field)")
    }
  }

  /// Whether a field's kind here agrees with Google's type for it; nested bodies recursively.
  private func compare(_ kind: WireSchema.Kind, with property: [String: Any], at place: String) {
    checkedFields += 1
    let type = property["type"] as? String
    let format = property["format"] as? String
    switch kind {
    case .string:
      if type != "string" { problems.append("\(place): a string here, \(type ?? "?") in Google's") }
    case .bool:
      if type != "boolean" { problems.append("\(place): a boolean here, \(type ?? "?") in Google's") }
    case .number:
      if type != "integer" && type != "number" {
        problems.append("\(place): a number here, \(type ?? "?") in Google's")
      }
    case .int64:
      let ok = type == "integer" || (type == "string" && ["int64", "uint64"].contains(format ?? ""))
      if !ok { problems.append("\(place): an int64 here, \(type ?? "?")/\(format ?? "") in Google's") }
    case .enumeration(let names):
      guard type == "string" else {
        problems.append("\(place): an enum here, \(type ?? "?") in Google's")
        return
      }
      guard let values = property["enum"] as? [String] else {
        exceptions.append("\(place): Google types it a plain string and lists no values to check ours against")
        return
      }
      let unknown = Set(names).subtracting(values)
      if !unknown.isEmpty { problems.append("\(place): \(unknown.sorted()) are not values Google names") }
    case .map(let value):
      guard type == "object", let additional = property["additionalProperties"] as? [String: Any] else {
        problems.append("\(place): a map here, \(type ?? "?") in Google's")
        return
      }
      compare(value, with: additional, at: place + "[*]")
    case .array(let element):
      guard type == "array", let items = property["items"] as? [String: Any] else {
        problems.append("\(place): an array here, \(type ?? "?") in Google's")
        return
      }
      compare(element, with: items, at: place + "[]")
    case .object(let fields, let unlisted):
      guard let reference = property["$ref"] as? String,
        let properties = schemas[reference]?["properties"] as? [String: Any]
      else {
        if type == "object", fields.isEmpty { return }
        problems.append("\(place): an object here, \(type ?? "?") in Google's")
        return
      }
      for (field, kind) in fields.sorted(by: { $0.key < $1.key }) {
        guard let nested = properties[field] as? [String: Any] else {
          if let reason = unlisted[field] {
            exceptions.append("\(place).\(field): \(reason)")
          } else {
            problems.append("\(place).\(field): not in \(reference)")
          }
          continue
        }
        compare(kind, with: nested, at: "\(place).\(field)")
      }
    }
  }

  /// A body's fields and kinds, the fields it lists as not Google's with their reasons, and its
  /// query fields.
  private static func describe(_ type: any WireBody.Type) -> (WireSchema, [String: String], Set<String>) {
    func open<Body: WireBody>(_ type: Body.Type) -> (WireSchema, [String: String], Set<String>) {
      let schema = (try? WireSchema.probe(type).schema) ?? WireSchema(fields: [:])
      return (schema, Body.unlistedFields, Set(Body.queryKeys.map(\.stringValue)))
    }
    return open(type)
  }
}
