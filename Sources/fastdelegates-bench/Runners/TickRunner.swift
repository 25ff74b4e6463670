/// A multiplexer that sends the void "scroll tick" to its targets (the tick and lookup
/// scenarios). Its methods are `@inline(__always)` (see ``Runner``).
protocol Ticking {
    /// Sends `value` to every target (or the first, in breaking mode).
    func tick(_ value: Int)
    /// The sum of every target's sum of the ticks it received.
    var tickSum: Int { get }
}

/// `count` ticks in a row.
final class TickRunner<Multiplexer: Ticking>: Runner {
    let multiplexer: Multiplexer
    init(_ multiplexer: Multiplexer) { self.multiplexer = multiplexer }
    @inline(never)
    func run(_ count: Int, base: Int) {
        for i in 0..<count { multiplexer.tick(base &+ i) }
    }
    var checksum: Int { multiplexer.tickSum }
}

extension AnyRunner {
    /// The tick scenario (or lookup) on `multiplexer`.
    static func tick(_ multiplexer: some Ticking) -> AnyRunner { AnyRunner(TickRunner(multiplexer)) }
}

extension Sequence where Element: SummingTarget {
    /// The targets' sums, added.
    var tickSum: Int { reduce(0) { $0 &+ $1.sum } }
}
