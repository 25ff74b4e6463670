/// A strong array of protocol existentials, one indirect call each: the physical floor
/// (no zeroing-weak semantics, no message lookup).
enum StrongArrayVariant {
    static let variant = Variant(name: "strong-array") { scenario, n in
        switch scenario {
        case .tick: TickRunner(BenchTarget.make(n))
        case .first: FirstRunner(BenchTarget.make(n))
        default: nil
        }
    }

    final class TickRunner: Runner {
        let delegates: [any ScrollDelegate]
        let targets: [BenchTarget]
        init(_ targets: [BenchTarget]) {
            self.targets = targets
            delegates = targets
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count {
                for delegate in delegates { delegate.scrollTick(base &+ i) }
            }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let delegates: [any ScrollDelegate]
        var answers = 0
        init(_ targets: [BenchTarget]) { delegates = targets }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var sum = 0
            for i in 0..<count { sum &+= delegates.first?.firstResponder(base &+ i) ?? 0 }
            answers &+= sum
        }
        var checksum: Int { answers }
    }
}
