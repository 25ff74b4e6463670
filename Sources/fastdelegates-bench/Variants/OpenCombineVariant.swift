import OpenCombine

/// OpenCombine's `PassthroughSubject` with one `sink` per target, each holding its target
/// weakly. The "first responder" query sends a reply box that the first sink fills.
enum OpenCombineVariant {
    static let variant = Variant(name: "opencombine") { scenario, n in
        switch scenario {
        case .tick: TickRunner(n)
        case .first: FirstRunner(n)
        default: nil
        }
    }

    /// A query and the first subscriber's answer.
    final class Query {
        let value: Int
        var answer: Int?
        init(_ value: Int) { self.value = value }
    }

    final class TickRunner: Runner {
        let subject = PassthroughSubject<Int, Never>()
        let targets: [BenchTarget]
        var cancellables: [AnyCancellable] = []
        init(_ n: Int) {
            targets = BenchTarget.make(n)
            for target in targets {
                subject.sink { [weak target] value in target?.scrollTick(value) }.store(in: &cancellables)
            }
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { subject.send(base &+ i) }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let subject = PassthroughSubject<Query, Never>()
        let targets: [BenchTarget]
        var cancellables: [AnyCancellable] = []
        var answers = 0
        init(_ n: Int) {
            targets = BenchTarget.make(n)
            for target in targets {
                subject.sink { [weak target] query in
                    guard query.answer == nil, let target else { return }
                    query.answer = target.firstResponder(query.value)
                }.store(in: &cancellables)
            }
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var sum = 0
            for i in 0..<count {
                let query = Query(base &+ i)
                subject.send(query)
                sum &+= query.answer ?? 0
            }
            answers &+= sum
        }
        var checksum: Int { answers }
    }
}
