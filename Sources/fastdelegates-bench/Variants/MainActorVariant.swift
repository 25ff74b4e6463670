import FastDelegates

/// FastDelegates' `DelegateChain` in Swift 6 app code: a `@MainActor` host owns the chain and
/// sends to `@MainActor` targets, whose handlers call their isolated methods directly (an
/// isolated conformance; no `MainActor.assumeIsolated` per call). The tick scenario only.
enum MainActorVariant {
    static let variant = Variant(name: "fastdelegates-mainactor") { scenario, n in
        switch scenario {
        case .tick: CodePlacement.make(Choice(targets: n))
        default: nil
        }
    }

    /// Makes the runner in the copy of the host's loop that ``CodePlacement/current`` names.
    struct Choice: CodeShiftChoice {
        let targets: Int
        func make<Shift: CodeShift>(_: Shift.Type) -> AnyRunner? { AnyRunner(HostTickRunner<Shift>(targets)) }
    }

    /// The tick runner of this variant alone: its loop is the host's main-actor method, which the
    /// harness (synchronous, nonisolated code on the main thread) enters once per batch.
    final class HostTickRunner<Shift: CodeShift>: Runner {
        let host: MainActorHost
        /// The host's loop as the harness calls it: made once, so that no batch allocates it.
        private let tick: (MainActorHost, Int, Int) -> Void

        init(_ n: Int) {
            // Also checks, once, that the harness runs on the main actor's thread.
            host = MainActor.assumeIsolated { MainActorHost(n) }
            let isolated: @MainActor (MainActorHost, Int, Int) -> Void = { host, count, base in
                host.tick(count, base: base, shift: Shift.self)
            }
            tick = unsafeBitCast(isolated, to: ((MainActorHost, Int, Int) -> Void).self)
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            // Enters the main actor without a check per batch: the harness is on the main thread
            // (checked in init), and the check of `MainActor.assumeIsolated` allocates on Linux,
            // which the allocation count would charge to the sends. The sends themselves, inside
            // the host, are ordinary main-actor code.
            tick(host, count, base)
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
    func tick<Shift: CodeShift>(_ count: Int, base: Int, shift: Shift.Type) {
        Shift.pad()
        for i in 0..<count { chain.send(Bench.tick, base &+ i) }
    }

    var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
}
