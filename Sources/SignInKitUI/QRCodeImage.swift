#if canImport(SwiftUI) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
  import CoreImage
  import CoreImage.CIFilterBuiltins
  import SwiftUI

  /// `text` as a QR code (Core Image's generator), drawn sharp at any size; nothing when it
  /// cannot be made.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  struct QRCodeImage: View {
    let text: String

    var body: some View {
      if let image = Self.cgImage(of: text) {
        Image(decorative: image, scale: 1).interpolation(.none).resizable().scaledToFit()
      }
    }

    private static func cgImage(of text: String) -> CGImage? {
      let filter = CIFilter.qrCodeGenerator()
      filter.message = Data(text.utf8)
      filter.correctionLevel = "M"
      guard let output = filter.outputImage else { return nil }
      return CIContext().createCGImage(output, from: output.extent)
    }
  }
#endif
