#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SwiftUI

  /// What every sheet of the screens has around its content: a navigation title, a cancel
  /// button that goes back a step, the error line, and no input while a call runs.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  struct SheetShell<Content: View>: View {
    let title: String
    let cancelTitle: String
    let isBusy: Bool
    let message: String?
    let cancel: () -> Void
    @ViewBuilder let content: Content
    @Environment(\.signInTheme) private var theme

    var body: some View {
      NavigationStack {
        ScrollView {
          VStack(alignment: .leading, spacing: 16) {
            content
            if let message { Text(message).font(theme.bodyFont).foregroundStyle(theme.error) }
          }
          .padding()
        }
        .disabled(isBusy)
        .navigationTitle(title)
        .toolbar {
          ToolbarItem(placement: .cancellationAction) { Button(cancelTitle, action: cancel) }
        }
      }
    }
  }
#endif
