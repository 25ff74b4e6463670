import FastDelegates

/// FastDelegates' `DelegateChain` in Swift 6 app code: a `@MainActor` host owns the chain and
/// sends to `@MainActor` targets, whose handlers call their isolated methods directly (an
/// isolated conformance; no `MainActor.assumeIsolated` per call). The tick scenario only.
enum MainActorVariant {
    static let variant = Variant(name: "fastdelegates-mainactor") { scenario, n in
        switch scenario {
        case .tick: TickRunner(n)
        default: nil
        }
    }

    /// The benchmark's entry points are synchronous and nonisolated, on the main thread: each
    /// batch of sends enters the main actor once (not per send).
    final class TickRunner: Runner {
        let host: MainActorHost
        init(_ n: Int) {
            host = MainActor.assumeIsolated { MainActorHost(n) }
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            let host = self.host
            MainActor.assumeIsolated { host.tick(count, base: base) }
        }
        var checksum: Int {
            let host = self.host
            return MainActor.assumeIsolated { host.checksum }
        }
    }
}

/// A `@MainActor` target: the same work as `BenchTarget`, on its isolated state.
@MainActor
final class MainActorTarget {
    private(set) var sum = 0
    func scrolled(_ value: Int) { sum &+= value }
}

extension MainActorTarget: @MainActor DelegateResponder {
    static let responses = Responses<MainActorTarget>()
        .on(Bench.tick) { me, value in me.scrolled(value) }
}

/// A `@MainActor` host (a view, say) that owns its chain and its targets.
@MainActor
final class MainActorHost {
    let chain = DelegateChain()
    let targets: [MainActorTarget]

    init(_ n: Int) {
        targets = (0..<n).map { _ in MainActorTarget() }
        for target in targets { chain.add(target) }
    }

    @inline(never)
    func tick(_ count: Int, base: Int) {
        for i in 0..<count { chain.send(Bench.tick, base &+ i) }
    }

    var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
}
