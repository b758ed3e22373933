import Testing

@testable import SignInEmulator

@Suite struct EmulatorPageHTMLTests {
  @Test(arguments: [
    #"<script>alert("x")</script>"#, "Ada & 'Grace'", "&lt; is already an entity", "&amp;&#39;", "plain", "",
  ])
  func whatIsEscapedReadsBackAsItWas(_ text: String) {
    let escaped = EmulatorPageHTML.escape(text)
    #expect(!escaped.contains("<") && !escaped.contains("\""))
    #expect(EmulatorPageHTML.unescape(escaped) == text)
  }
}
