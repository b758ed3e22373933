/// `GET /v1/projects` (v3 `getProjectConfig`): the project's id and the domains its emailed
/// links and sign-in pages may use, as a client SDK reads them.
///
/// - Concurrency: `Sendable` value.
package struct ProjectConfigReply: WireBody {
  @Lenient package var projectId: String?
  @Lenient package var authorizedDomains: [String]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case projectId, authorizedDomains
  }
}
