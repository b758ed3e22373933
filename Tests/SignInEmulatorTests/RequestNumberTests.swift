import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInFoundation
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// Item 1 of the third hardening: numbers from a request are range-checked before use, and a
/// stored value out of range is reported, not trapped on.
@Suite struct RequestNumberTests {
  @Test(arguments: [
    JSONValue.string("1e300"), .string("-1e300"), .number(9.3e18), .string("nan"), .string("inf"),
    .string("-inf"), .number(1.5), .string("12abc"), .string(""), .string("+"), .string("99999999999999999999"),
    .bool(true), .null, .array([]), .number(-1),
  ])
  func aNumberOutsideItsRangeIsAnInvalidArgument(_ value: JSONValue) {
    let error = #expect(throws: AuthError.self) {
      try RequestNumber.integer(value, field: "validSince", in: RequestNumber.epochSeconds)
    }
    #expect(error?.serverMessage?.hasPrefix("INVALID_ARGUMENT : Invalid value at 'validSince'") == true)
  }

  @Test(arguments: [
    (JSONValue.string("1800000000"), Int64(1_800_000_000)), (.number(1_800_000_000), 1_800_000_000),
    (.string("0"), 0), (.string("+42"), 42), (.string("253402300799"), 253_402_300_799),
  ])
  func aWholeNumberInRangeIsRead(_ value: JSONValue, _ expected: Int64) throws {
    #expect(try RequestNumber.integer(value, field: "f", in: RequestNumber.epochSeconds) == expected)
  }

  @Test func anAbsentFieldIsNil() throws {
    #expect(try RequestNumber.integer(nil, field: "f", in: 0...1) == nil)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, -9.3e18])
  func aReplyNumberNeverTraps(_ seconds: Double) {
    _ = RequestNumber.whole(seconds)
  }

  // Through the admin API, as the review sent them.

  static let project = "/identitytoolkit.googleapis.com/v1/projects/signinkit-local"

  @Test(arguments: [
    JSONValue.string("1e300"), .string("-1e300"), .number(9.3e18), .string("nan"), .string("inf"),
  ])
  func anAdminValidSinceOutOfRangeIsRefusedAndNothingIsStored(_ validSince: JSONValue) async throws {
    let backend = try EmbeddedTestBackend.backend()
    let routes = FirebaseEmulatorRoutes(backend: backend)
    let created = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let body = try JSONEncoder().encode(
      JSONValue.object(["localId": .string(created.localID), "validSince": validSince]))
    let reply = await routes.reply(
      method: "POST", target: "\(Self.project)/accounts:update", headers: FirebaseEmulatorAdminTests.owner, body: body)
    #expect(reply.status == 400)
    #expect(String(decoding: reply.body, as: UTF8.self).contains("INVALID_ARGUMENT"))
    // The account answers lookups as before: nothing was stored.
    let lookup = await routes.reply(
      method: "POST", target: "\(Self.project)/accounts:lookup", headers: FirebaseEmulatorAdminTests.owner,
      body: Data(#"{"localId":["\#(created.localID)"]}"#.utf8))
    #expect(lookup.status == 200)
    _ = try await backend.lookup(LookupRequest(idToken: created.tokens.idToken))
  }

}
