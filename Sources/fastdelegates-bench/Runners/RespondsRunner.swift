/// A multiplexer that says whether some target answers the tick (the responds scenario). Its
/// methods are `@inline(__always)` (see ``Runner``).
protocol Responding {
    /// Whether some live target answers the tick.
    var respondsToTick: Bool { get }
}

/// `count` `responds(to:)` queries in a row; the checksum counts the true answers.
final class RespondsRunner<Multiplexer: Responding, Target: SummingTarget>: Runner {
    let multiplexer: Multiplexer
    /// The targets, kept alive here (a weak multiplexer does not).
    let targets: [Target]
    var trues = 0
    init(_ multiplexer: Multiplexer, targets: [Target]) {
        self.multiplexer = multiplexer
        self.targets = targets
    }
    @inline(never)
    func run(_ count: Int, base: Int) {
        var found = 0
        for _ in 0..<count where multiplexer.respondsToTick { found &+= 1 }
        trues &+= found
    }
    var checksum: Int { trues }
}

extension AnyRunner {
    /// The responds scenario on `multiplexer`, which holds `targets`.
    static func responds(_ multiplexer: some Responding, targets: [some SummingTarget]) -> AnyRunner {
        AnyRunner(RespondsRunner(multiplexer, targets: targets))
    }

    /// The responds scenario on `multiplexer` with `n` fresh targets added.
    static func responds(_ n: Int, _ multiplexer: some Membership & Responding) -> AnyRunner {
        responds(multiplexer, targets: multiplexer.populate(n))
    }
}
