/// How long to wait before retrying a refresh that failed transiently: exponential from
/// ``initial`` doubling up to ``maximum``, each delay shortened by a random part of up to
/// ``jitter`` so that many clients do not retry in step.
///
/// The defaults are the iOS SDK's: 60 s, doubling, at most 16 minutes.
///
/// - Concurrency: `Sendable` value.
public struct RetryBackoff: Sendable, Equatable {
  public var initial: Duration
  public var maximum: Duration
  /// The largest fraction (0…1) taken off a delay at random.
  public var jitter: Double

  public init(
    initial: Duration = .seconds(60), maximum: Duration = .seconds(16 * 60), jitter: Double = 0.1
  ) {
    self.initial = initial
    self.maximum = maximum
    self.jitter = min(max(jitter, 0), 1)
  }

  /// The base delay after `failures` consecutive failures (1 → ``initial``), before jitter.
  public func baseDelay(afterFailures failures: Int) -> Duration {
    var delay = initial
    for _ in 1..<max(1, failures) {
      delay = delay * 2
      if delay >= maximum { return maximum }
    }
    return min(delay, maximum)
  }

  /// The delay to wait: the base delay minus up to ``jitter`` of it. `random` is in `0..<1`.
  /// The result lies in `base * (1 - jitter) ... base`.
  public func delay(afterFailures failures: Int, random: Double) -> Duration {
    let base = baseDelay(afterFailures: failures)
    return base * (1 - jitter * min(max(random, 0), 1))
  }
}
