import FastDelegates

/// FastDelegates' `DelegateChain` in Swift 6 app code: a `@MainActor` host owns the chain and
/// sends to `@MainActor` targets, whose handlers call their isolated methods directly (an
/// isolated conformance; no `MainActor.assumeIsolated` per call). The tick scenario only.
enum MainActorVariant {
    static let variant = Variant(name: "fastdelegates-mainactor") { scenario, n in
        switch scenario {
        case .tick: AnyRunner(HostTickRunner(n))
        default: nil
        }
    }

    /// The tick runner of this variant alone: its loop is the host's main-actor method, which the
    /// harness (synchronous, nonisolated code on the main thread) enters once per batch.
    final class HostTickRunner: Runner {
        let host: MainActorHost
        init(_ n: Int) {
            // Also checks, once, that the harness runs on the main actor's thread.
            host = MainActor.assumeIsolated { MainActorHost(n) }
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            // Enters the main actor without a check per batch: the harness is on the main thread
            // (checked in init), and the check of `MainActor.assumeIsolated` allocates on Linux,
            // which the allocation count would charge to the sends. The sends themselves, inside
            // the host, are ordinary main-actor code.
            typealias Tick = (MainActorHost, Int, Int) -> Void
            unsafeBitCast(mainActorTick as @MainActor (MainActorHost, Int, Int) -> Void, to: Tick.self)(
                host, count, base)
        }
        var checksum: Int {
            let host = self.host
            return MainActor.assumeIsolated { host.checksum }
        }
    }
}

@MainActor
private func mainActorTick(_ host: MainActorHost, _ count: Int, _ base: Int) {
    host.tick(count, base: base)
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
