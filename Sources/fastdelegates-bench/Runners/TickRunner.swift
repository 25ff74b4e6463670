/// A multiplexer that sends the void "scroll tick" to its targets (the tick and lookup
/// scenarios). Its methods are `@inline(__always)` (see ``Runner``).
protocol Ticking {
    /// Sends `value` to every target (or the first, in breaking mode).
    func tick(_ value: Int)
}

/// `count` ticks in a row; the checksum adds up the targets' sums. `Shift` places the loop
/// (``CodePlacement``).
final class TickRunner<Multiplexer: Ticking, Target: SummingTarget, Shift: CodeShift>: Runner {
    let multiplexer: Multiplexer
    /// The targets, kept alive here (a weak multiplexer does not).
    let targets: [Target]
    init(_ multiplexer: Multiplexer, targets: [Target]) {
        self.multiplexer = multiplexer
        self.targets = targets
    }
    @inline(never)
    func run(_ count: Int, base: Int) {
        Shift.pad()
        for i in 0..<count { multiplexer.tick(base &+ i) }
    }
    var checksum: Int { targets.tickSum }
}

extension AnyRunner {
    /// The tick scenario on `multiplexer`, which holds `targets`, in the copy of the loop that
    /// ``CodePlacement/current`` names.
    static func tick(_ multiplexer: some Ticking, targets: [some SummingTarget]) -> AnyRunner {
        CodePlacement.make(TickRunnerChoice(multiplexer: multiplexer, targets: targets))
    }

    /// The tick scenario on `multiplexer` with `n` fresh targets added.
    static func tick(_ n: Int, _ multiplexer: some Membership) -> AnyRunner {
        tick(multiplexer, targets: multiplexer.populate(n))
    }
}

/// Makes a ``TickRunner`` in the copy of its loop that a ``CodeShift`` names.
private struct TickRunnerChoice<Multiplexer: Ticking, Target: SummingTarget>: CodeShiftChoice {
    let multiplexer: Multiplexer
    let targets: [Target]
    func make<Shift: CodeShift>(_: Shift.Type) -> AnyRunner {
        AnyRunner(TickRunner<Multiplexer, Target, Shift>(multiplexer, targets: targets))
    }
}

extension Sequence where Element: SummingTarget {
    /// The targets' sums, added.
    var tickSum: Int { reduce(0) { $0 &+ $1.sum } }
}
