import Dispatch
import FastDelegates
import Foundation

/// FastDelegates' `ConcurrentDelegateChain`, weak targets, non-breaking.
///
/// - `concurrent-weak`: one thread sends, as every other variant (tick, first, responds).
/// - `concurrent-weak-2threads` (tick only): two threads send on the same chain at once. The
///   chain holds 2·N targets: N answer `tick` (sent by the harness thread) and N answer a
///   second message of the same shape (sent by a worker thread), so each send reaches N
///   targets, as in every tick variant, and the targets need no synchronization of their own:
///   what is measured is the chain shared by two sending threads. Each thread performs the
///   sample's `count` dispatches; the figure is wall time / count, i.e. **ns per dispatch per
///   thread** while both send (the aggregate rate is twice that many dispatches). The checksum
///   is verified for both threads' targets.
enum ConcurrentVariant {
    static let weak = Variant(name: "concurrent-weak") { scenario, n in
        switch scenario {
        case .tick: TickRunner(n)
        case .first: FirstRunner(n)
        case .responds: RespondsRunner(n)
        default: nil
        }
    }

    static let weakTwoThreads = Variant(name: "concurrent-weak-2threads") { scenario, n in
        switch scenario {
        case .tick: TwoThreadTickRunner(n)
        default: nil
        }
    }

    /// The second thread's tick: the same shape as `Bench.tick`, answered by other targets.
    static let workerTick = Message<Int, Void>("concurrentBenchWorkerTick:")

    static func chain(_ n: Int) -> (ConcurrentDelegateChain, [BenchTarget]) {
        let chain = ConcurrentDelegateChain()
        let targets = BenchTarget.make(n)
        for target in targets { chain.add(target) }
        return (chain, targets)
    }

    final class TickRunner: Runner {
        let chain: ConcurrentDelegateChain
        let targets: [BenchTarget]
        init(_ n: Int) { (chain, targets) = ConcurrentVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for i in 0..<count { chain.send(Bench.tick, base &+ i) }
        }
        var checksum: Int { targets.reduce(0) { $0 &+ $1.sum } }
    }

    final class FirstRunner: Runner {
        let chain: ConcurrentDelegateChain
        let targets: [BenchTarget]
        var answers = 0
        init(_ n: Int) { (chain, targets) = ConcurrentVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var sum = 0
            for i in 0..<count { sum &+= chain.send(Bench.first, base &+ i) ?? 0 }
            answers &+= sum
        }
        var checksum: Int { answers }
    }

    final class RespondsRunner: Runner {
        let chain: ConcurrentDelegateChain
        let targets: [BenchTarget]
        var trues = 0
        init(_ n: Int) { (chain, targets) = ConcurrentVariant.chain(n) }
        @inline(never)
        func run(_ count: Int, base: Int) {
            var found = 0
            for _ in 0..<count where chain.responds(to: Bench.tick) { found &+= 1 }
            trues &+= found
        }
        var checksum: Int { trues }
    }

    /// The state the harness thread shares with the worker thread. `job` and the worker's
    /// targets are handed over by the semaphores (signal happens before the wait returns).
    final class Worker: @unchecked Sendable {
        let chain: ConcurrentDelegateChain
        let targets: [BenchTarget]
        let start = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        var job = (count: 0, base: 0)
        var stop = false

        init(chain: ConcurrentDelegateChain, targets: [BenchTarget]) {
            self.chain = chain
            self.targets = targets
        }

        func loop() {
            while true {
                start.wait()
                if stop { return }
                let (count, base) = job
                for i in 0..<count { chain.send(ConcurrentVariant.workerTick, base &+ i) }
                done.signal()
            }
        }
    }

    final class TwoThreadTickRunner: Runner {
        let chain: ConcurrentDelegateChain
        let targets: [BenchTarget]
        let worker: Worker

        init(_ n: Int) {
            (chain, targets) = ConcurrentVariant.chain(n)
            let workerTargets = BenchTarget.make(n)
            let workerResponses = Responses<BenchTarget>().on(ConcurrentVariant.workerTick) { me, value in
                me.sum &+= value
            }
            for target in workerTargets { chain.add(target, responses: workerResponses) }
            let worker = Worker(chain: chain, targets: workerTargets)
            self.worker = worker
            let thread = Thread { worker.loop() }
            thread.start()
        }

        deinit {
            worker.stop = true
            worker.start.signal()
        }

        @inline(never)
        func run(_ count: Int, base: Int) {
            worker.job = (count, base)
            worker.start.signal()
            for i in 0..<count { chain.send(Bench.tick, base &+ i) }
            worker.done.wait()
        }

        /// The harness thread's targets' sum, if the worker's targets summed the same values;
        /// otherwise a value that cannot match.
        var checksum: Int {
            let mine = targets.reduce(0) { $0 &+ $1.sum }
            let theirs = worker.targets.reduce(0) { $0 &+ $1.sum }
            return mine == theirs ? mine : mine &+ 1
        }
    }
}
