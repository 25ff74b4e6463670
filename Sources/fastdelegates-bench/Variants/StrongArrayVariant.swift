/// A strong array of protocol existentials, one indirect call each: the physical floor
/// (no zeroing-weak semantics, no message lookup).
enum StrongArrayVariant {
    static let variant = Variant(name: "strong-array") { scenario, n in
        let targets = BenchTarget.make(n)
        return switch scenario {
        case .tick: .tick(Multiplexer(delegates: targets), targets: targets)
        case .first: .first(Multiplexer(delegates: targets), targets: targets)
        default: nil
        }
    }

    struct Multiplexer: Ticking, FirstAnswering {
        let delegates: [any ScrollDelegate]
        @inline(__always) func tick(_ value: Int) {
            for delegate in delegates { delegate.scrollTick(value) }
        }
        @inline(__always) func first(_ value: Int) -> Int? { delegates.first?.firstResponder(value) }
    }
}
