import FastDelegates

/// The two messages every variant dispatches.
enum Bench {
    /// The void "scroll tick": each target adds the value into its own sum.
    static let tick = Message<Int, Void>("scrollViewDidScroll:")
    /// The non-void "first responder" query: a target answers `value &+ 1`. Every target answers
    /// the same, because NotificationCenter and OpenCombine do not promise delivery order; the
    /// checksum still proves that exactly one answer was taken per query.
    static let first = Message<Int, Int>("firstResponder:")
    /// The selector-style names, for variants keyed by string.
    static let tickName = "scrollViewDidScroll:"
    static let firstName = "firstResponder:"
}

/// The protocol a hand-written delegate would declare for the same two messages.
protocol ScrollDelegate: AnyObject {
    func scrollTick(_ value: Int)
    func firstResponder(_ value: Int) -> Int
}

/// Collects the sums of targets that die, so churn checksums stay verifiable.
final class Bank {
    var total = 0
}

/// What the runners need of a target: the sum of the ticks it received, and fresh ones.
protocol SummingTarget: AnyObject {
    var sum: Int { get }
    /// `n` fresh targets.
    static func make(_ n: Int) -> [Self]
    /// A fresh target of the churn scenario, whose sum goes to `bank` when it dies.
    init(churnBank bank: Bank)
}

/// The target every variant dispatches to: the same work behind every variant.
///
/// `@unchecked Sendable` so that the concurrent variants can register it: the measured work is a
/// plain add, the same in every variant, so `sum` stays an ordinary variable.
final class BenchTarget: DelegateResponder, ScrollDelegate, SummingTarget, @unchecked Sendable {
    // Sound: only the harness thread sends the messages a `BenchTarget` answers (the two-thread
    // variants' worker sends `workerTick`, which it does not answer), and it reads `sum` and
    // releases the target on that same thread.
    /// 1-based position in its chain (for debugging).
    let id: Int
    /// The target's checksum of every tick it received.
    var sum = 0
    /// Where the sum goes when the target dies (churn only).
    let bank: Bank?

    init(id: Int, bank: Bank? = nil) {
        self.id = id
        self.bank = bank
    }

    convenience init(churnBank bank: Bank) { self.init(id: 1, bank: bank) }

    deinit { bank?.total &+= sum }

    static let responses = SendableResponses<BenchTarget>()
        .on(Bench.tick) { me, value in me.sum &+= value }
        .on(Bench.first) { _, value in value &+ 1 }

    // Not @inline(never): a protocol call is then one indirect call into the body, as in
    // hand-written code (the floors must not pay an extra call the library does not).
    func scrollTick(_ value: Int) { sum &+= value }

    func firstResponder(_ value: Int) -> Int { value &+ 1 }

    /// `n` fresh targets with ids 1...n.
    static func make(_ n: Int) -> [BenchTarget] {
        (0..<n).map { BenchTarget(id: $0 + 1) }
    }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A second conformer of ``ScrollDelegate``. With a single conformer, whole-module optimization
/// devirtualizes and vectorizes the protocol calls of the strong-array floor, which then measures
/// no call at all; real delegate protocols have many conformers, so the floors keep one
/// indirect call per target.
final class LoggingScrollDelegate: ScrollDelegate {
    var last = 0
    func scrollTick(_ value: Int) { last = value }
    func firstResponder(_ value: Int) -> Int { value }
}
