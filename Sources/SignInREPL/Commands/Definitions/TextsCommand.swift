import Foundation
import SignInKit

/// `texts [NUMBER]`: Show the codes the embedded backend or the emulator texted, still usable.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct TextsCommand: REPLCommand {
  package static let name = "texts"
  package static let usage = "texts [NUMBER]"
  package static let summary = "Show the codes the embedded backend or the emulator texted, still usable."

  package var phoneNumber: String? = nil
}

extension TextsCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.count <= 1 else { throw Self.usageError }
    phoneNumber = arguments.first
  }

  package func run(in session: isolated REPLSession) async throws {
    guard session.backend.showsTextedCodes else {
      throw AuthError(.misconfigured, "Firebase texts its codes to the phone; read them there.")
    }
    let texts = try await session.backend.texts(to: phoneNumber)
    if texts.isEmpty { await session.say("no texts") }
    for text in texts {
      await session.say("text to \(text.to): \(text.code)", fields: ["code": text.code])
    }
  }
}
