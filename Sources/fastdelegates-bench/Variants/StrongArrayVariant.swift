/// A strong array of protocol existentials, one indirect call each: the physical floor
/// (no zeroing-weak semantics, no message lookup).
enum StrongArrayVariant {
    static let variant = Variant(name: "strong-array") { scenario, n in
        switch scenario {
        case .tick: .tick(Multiplexer(BenchTarget.make(n)))
        case .first: .first(Multiplexer(BenchTarget.make(n)))
        default: nil
        }
    }

    struct Multiplexer: Ticking, FirstAnswering {
        let delegates: [any ScrollDelegate]
        let targets: [BenchTarget]
        init(_ targets: [BenchTarget]) {
            self.targets = targets
            delegates = targets
        }
        @inline(__always) func tick(_ value: Int) {
            for delegate in delegates { delegate.scrollTick(value) }
        }
        @inline(__always) func first(_ value: Int) -> Int? { delegates.first?.firstResponder(value) }
        var tickSum: Int { targets.tickSum }
    }
}
