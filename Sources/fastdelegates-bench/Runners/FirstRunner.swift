/// A multiplexer that asks its first responder (the first scenario). Its methods are
/// `@inline(__always)` (see ``Runner``).
protocol FirstAnswering {
    /// The first responder's answer to `value` (`value &+ 1`), or nil if none answers.
    func first(_ value: Int) -> Int?
}

/// `count` first-responder queries in a row; the checksum adds up the answers.
final class FirstRunner<Multiplexer: FirstAnswering, Target: SummingTarget>: Runner {
    let multiplexer: Multiplexer
    /// The targets, kept alive here (a weak multiplexer does not).
    let targets: [Target]
    var answers = 0
    init(_ multiplexer: Multiplexer, targets: [Target]) {
        self.multiplexer = multiplexer
        self.targets = targets
    }
    @inline(never)
    func run(_ count: Int, base: Int) {
        var sum = 0
        for i in 0..<count { sum &+= multiplexer.first(base &+ i) ?? 0 }
        answers &+= sum
    }
    var checksum: Int { answers }
}

extension AnyRunner {
    /// The first scenario on `multiplexer`, which holds `targets`.
    static func first(_ multiplexer: some FirstAnswering, targets: [some SummingTarget]) -> AnyRunner {
        AnyRunner(FirstRunner(multiplexer, targets: targets))
    }

    /// The first scenario on `multiplexer` with `n` fresh targets added.
    static func first(_ n: Int, _ multiplexer: some Membership & FirstAnswering) -> AnyRunner {
        first(multiplexer, targets: multiplexer.populate(n))
    }
}
