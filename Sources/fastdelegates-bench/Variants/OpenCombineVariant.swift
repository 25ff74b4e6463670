import OpenCombine

/// OpenCombine's `PassthroughSubject` with one `sink` per target, each holding its target
/// weakly. The "first responder" query sends a reply box that the first sink fills.
enum OpenCombineVariant {
    static let variant = Variant(name: "opencombine") { scenario, n in
        let targets = BenchTarget.make(n)
        return switch scenario {
        case .tick: .tick(Ticks(targets), targets: targets)
        case .first: .first(Queries(targets), targets: targets)
        default: nil
        }
    }

    /// A query and the first subscriber's answer.
    final class Query {
        let value: Int
        var answer: Int?
        init(_ value: Int) { self.value = value }
    }

    /// A subject of the tick values, with one sink per target.
    final class Ticks: Ticking {
        let subject = PassthroughSubject<Int, Never>()
        var cancellables: [AnyCancellable] = []
        init(_ targets: [BenchTarget]) {
            for target in targets {
                subject.sink { [weak target] value in target?.scrollTick(value) }.store(in: &cancellables)
            }
        }
        @inline(__always) func tick(_ value: Int) { subject.send(value) }
    }

    /// A subject of queries, with one sink per target; the first to see a query answers it.
    final class Queries: FirstAnswering {
        let subject = PassthroughSubject<Query, Never>()
        var cancellables: [AnyCancellable] = []
        init(_ targets: [BenchTarget]) {
            for target in targets {
                subject.sink { [weak target] query in
                    guard query.answer == nil, let target else { return }
                    query.answer = target.firstResponder(query.value)
                }.store(in: &cancellables)
            }
        }
        @inline(__always) func first(_ value: Int) -> Int? {
            let query = Query(value)
            subject.send(query)
            return query.answer
        }
    }
}
