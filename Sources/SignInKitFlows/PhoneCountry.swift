import Foundation

/// A country a phone number can be from, by its region code and calling code, for a phone
/// screen's country picker: the picked country's ``callingCode`` goes in
/// ``SignInFlow/countryCode``.
///
/// - Concurrency: `Sendable` value.
public struct PhoneCountry: Sendable, Hashable, Identifiable {
  /// The ISO 3166-1 region code, such as `"GB"`.
  public let regionCode: String
  /// The ITU calling code, digits only, such as `"44"`.
  public let callingCode: String

  public var id: String { regionCode }

  public init(regionCode: String, callingCode: String) {
    self.regionCode = regionCode
    self.callingCode = callingCode
  }

  /// The country's name in `locale`'s language ("Royaume-Uni" in French).
  public func name(in locale: Locale = .current) -> String {
    locale.localizedString(forRegionCode: regionCode) ?? regionCode
  }

  /// The countries a picker lists, sorted by their names in `locale`.
  public static func all(sortedFor locale: Locale = .current) -> [PhoneCountry] {
    known.sorted { $0.name(in: locale).localizedCompare($1.name(in: locale)) == .orderedAscending }
  }

  /// The country of `locale`'s region (the device's), when it is one of ``all(sortedFor:)``.
  public static func current(_ locale: Locale = .current) -> PhoneCountry? {
    guard let region = locale.region?.identifier else { return nil }
    return known.first { $0.regionCode == region }
  }

  /// Region code and calling code, as the ITU assigns them.
  static let known: [PhoneCountry] = [
    ("AE", "971"), ("AR", "54"), ("AT", "43"), ("AU", "61"), ("BD", "880"), ("BE", "32"), ("BG", "359"),
    ("BR", "55"), ("CA", "1"), ("CH", "41"), ("CL", "56"), ("CN", "86"), ("CO", "57"), ("CR", "506"),
    ("CY", "357"), ("CZ", "420"), ("DE", "49"), ("DK", "45"), ("DO", "1"), ("DZ", "213"), ("EC", "593"),
    ("EE", "372"), ("EG", "20"), ("ES", "34"), ("FI", "358"), ("FR", "33"), ("GB", "44"), ("GH", "233"),
    ("GR", "30"), ("GT", "502"), ("HK", "852"), ("HR", "385"), ("HU", "36"), ("ID", "62"), ("IE", "353"),
    ("IL", "972"), ("IN", "91"), ("IQ", "964"), ("IS", "354"), ("IT", "39"), ("JM", "1"), ("JO", "962"),
    ("JP", "81"), ("KE", "254"), ("KR", "82"), ("KW", "965"), ("KZ", "7"), ("LB", "961"), ("LK", "94"),
    ("LT", "370"), ("LU", "352"), ("LV", "371"), ("MA", "212"), ("MX", "52"), ("MY", "60"), ("NG", "234"),
    ("NL", "31"), ("NO", "47"), ("NP", "977"), ("NZ", "64"), ("PA", "507"), ("PE", "51"), ("PH", "63"),
    ("PK", "92"), ("PL", "48"), ("PR", "1"), ("PT", "351"), ("PY", "595"), ("QA", "974"), ("RO", "40"),
    ("RS", "381"), ("RU", "7"), ("SA", "966"), ("SE", "46"), ("SG", "65"), ("SI", "386"), ("SK", "421"),
    ("TH", "66"), ("TN", "216"), ("TR", "90"), ("TW", "886"), ("TZ", "255"), ("UA", "380"), ("UG", "256"),
    ("US", "1"), ("UY", "598"), ("VE", "58"), ("VN", "84"), ("ZA", "27"),
  ].map { PhoneCountry(regionCode: $0.0, callingCode: $0.1) }
}
