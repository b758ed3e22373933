/// What a project (or tenant) asks of a new password: Identity Platform's password policy, as
/// `GET v2/passwordPolicy` answers it. A sign-up or password-change screen checks a password
/// against it before it calls, as FirebaseAuth's `validatePassword` does, so a person learns
/// every missing requirement at once.
///
/// ```swift
/// let policy = try await auth.passwordPolicy()
/// let unmet = policy.unmet(by: "hunter2")   // [.minimumLength(8), .uppercase]
/// ```
///
/// - Concurrency: `Sendable` value.
public struct PasswordPolicy: Sendable, Hashable {
  /// One thing a password must have.
  public enum Requirement: Sendable, Hashable {
    /// At least this many characters.
    case minimumLength(Int)
    /// At most this many characters.
    case maximumLength(Int)
    case lowercase
    case uppercase
    case digit
    /// A character that is neither a letter nor a digit (one of ``PasswordPolicy/symbols``
    /// when the policy lists them).
    case symbol
  }

  public var minimumLength: Int
  public var maximumLength: Int?
  public var requiresLowercase: Bool
  public var requiresUppercase: Bool
  public var requiresDigit: Bool
  public var requiresSymbol: Bool
  /// The characters that count as symbols; empty: any character that is not a letter or digit.
  public var symbols: String
  /// Whether the backend itself refuses a password that breaks the policy (`ENFORCE`); when
  /// `false`, only clients check it.
  public var isEnforced: Bool

  public init(
    minimumLength: Int = 6, maximumLength: Int? = nil, requiresLowercase: Bool = false,
    requiresUppercase: Bool = false, requiresDigit: Bool = false, requiresSymbol: Bool = false,
    symbols: String = "", isEnforced: Bool = false
  ) {
    self.minimumLength = minimumLength
    self.maximumLength = maximumLength
    self.requiresLowercase = requiresLowercase
    self.requiresUppercase = requiresUppercase
    self.requiresDigit = requiresDigit
    self.requiresSymbol = requiresSymbol
    self.symbols = symbols
    self.isEnforced = isEnforced
  }

  /// Firebase's rule when a project sets no policy: six characters or more.
  public static let firebaseDefault = PasswordPolicy()

  /// The requirements `password` does not meet, in the order a screen lists them; empty when
  /// it meets them all.
  public func unmet(by password: String) -> [Requirement] {
    var unmet: [Requirement] = []
    if password.count < minimumLength { unmet.append(.minimumLength(minimumLength)) }
    if let maximumLength, password.count > maximumLength { unmet.append(.maximumLength(maximumLength)) }
    if requiresLowercase, !password.contains(where: \.isLowercase) { unmet.append(.lowercase) }
    if requiresUppercase, !password.contains(where: \.isUppercase) { unmet.append(.uppercase) }
    if requiresDigit, !password.contains(where: \.isNumber) { unmet.append(.digit) }
    if requiresSymbol, !password.contains(where: isSymbol) { unmet.append(.symbol) }
    return unmet
  }

  private func isSymbol(_ character: Character) -> Bool {
    symbols.isEmpty ? !(character.isLetter || character.isNumber) : symbols.contains(character)
  }
}
