import Dispatch
import FastDelegates
import Foundation
import Synchronization

/// FastDelegates' `ConcurrentDelegateChain`, weak targets, non-breaking.
///
/// - `concurrent-weak`: one thread sends, as every other variant (tick, first, responds).
/// - `concurrent-2threads-shared` (tick only): two threads send on the same chain at once. The
///   chain holds 2·N targets: N answer `tick` (sent by the harness thread) and N answer a
///   second message of the same shape (sent by a worker thread), so each send reaches N
///   targets, as in every tick variant, and the targets need no synchronization of their own:
///   what is measured is the chain shared by two sending threads.
/// - `concurrent-2threads-separate` (tick only): the same two threads and the same work, but
///   each thread sends on its own chain of N targets. `shared / separate` is the cost of
///   sharing a chain between sending cores (1 if sends touch nothing another send writes).
///
/// In both two-thread variants the harness thread performs the sample's `count` dispatches
/// while the worker sends in a loop for as long as they run; the figure is the harness
/// thread's CPU time / count, i.e. **ns per dispatch on one thread while another thread
/// sends** (not an aggregate). CPU time, not wall time: stalls on cache lines the other thread
/// writes count, time the harness thread spends preempted (by the worker, on a machine with
/// few free cores) does not. The worker only overlaps when the OS gives it a core: on a loaded
/// machine the figure drifts toward the single-thread one; read it on a machine with two free
/// cores, and compare the two variants within one run (the harness interleaves their
/// samples). The checksum is verified for both threads' targets.
enum ConcurrentVariant {
    static let weak = Variant(name: "concurrent-weak") { scenario, n in
        switch scenario {
        case .tick: .tick(n, Multiplexer())
        case .first: .first(n, Multiplexer())
        case .responds: .responds(n, Multiplexer())
        case .churn: .churn(Multiplexer(), targets: n)
        default: nil
        }
    }

    static let twoThreadsShared = Variant(name: "concurrent-2threads-shared") { scenario, n in
        scenario == .tick ? AnyRunner(TwoThreadTickRunner(n, shared: true)) : nil
    }

    static let twoThreadsSeparate = Variant(name: "concurrent-2threads-separate") { scenario, n in
        scenario == .tick ? AnyRunner(TwoThreadTickRunner(n, shared: false)) : nil
    }

    /// The second thread's tick: the same shape as `Bench.tick`, answered by other targets.
    static let workerTick = Message<Int, Void>("concurrentBenchWorkerTick:")

    /// A `ConcurrentDelegateChain` of weak targets. In the churn scenario each mutation
    /// publishes a snapshot and, while another thread of the process has sent on a concurrent
    /// chain (the two-thread variants' workers, while they exist), runs the heavy fence.
    struct Multiplexer: Membership, FirstAnswering, Responding {
        let chain = ConcurrentDelegateChain()

        @inline(__always) func tick(_ value: Int) { chain.send(Bench.tick, value) }
        @inline(__always) func first(_ value: Int) -> Int? { chain.send(Bench.first, value) }
        @inline(__always) var respondsToTick: Bool { chain.responds(to: Bench.tick) }
        @inline(__always) func add(_ target: BenchTarget) { chain.add(target) }
        @inline(__always) func remove(_ target: BenchTarget) { chain.remove(target) }
    }

    /// The worker thread of the two-thread variants and what it shares with the harness
    /// thread. `state`: 0 idle (asleep on `start`), 1 sending in a loop, 2 told to stop. The
    /// harness thread's `run` neither waits for the worker to wake nor to stop (on a loaded
    /// 2-core machine either can take a whole scheduler time slice): it resumes a worker that
    /// has not stopped yet, or wakes an idle one, and tells it to stop at the end. The worker's
    /// targets and `sent` are read only once it is idle (`waitUntilIdle`, untimed). While it
    /// sends, the worker writes only its stack and its own targets (`WorkerTarget`, a size
    /// class of their own), so no cache line it writes can hold the harness thread's data.
    final class Worker: @unchecked Sendable {
        // Sound: `sent` and `value` are written by the worker thread while `state` is nonzero and
        // read by the harness only after `waitUntilIdle` acquired the worker's release of 0; the
        // other stored properties are `let`s of `Sendable` types (or the `@unchecked` targets).
        let chain: ConcurrentDelegateChain
        let targets: [WorkerTarget]
        let start = DispatchSemaphore(value: 0)
        let state = Atomic<Int>(0)
        let quit = Atomic<Bool>(false)
        /// Sum of the values the worker sent (each of its targets must have summed exactly these).
        var sent = 0
        private var value = 0

        init(chain: ConcurrentDelegateChain, targets: [WorkerTarget]) {
            self.chain = chain
            self.targets = targets
        }

        func loop() {
            while true {
                start.wait()
                if quit.load(ordering: .acquiring) { return }
                while true {
                    var sent = self.sent, value = self.value
                    while state.load(ordering: .relaxed) == 1 {
                        chain.send(ConcurrentVariant.workerTick, value)
                        sent &+= value
                        value &+= 1
                    }
                    self.sent = sent
                    self.value = value
                    if state.compareExchange(expected: 2, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                        break
                    }
                }
            }
        }

        /// Starts or resumes the worker's sending.
        func resume() {
            if state.compareExchange(expected: 2, desired: 1, ordering: .acquiringAndReleasing).exchanged { return }
            state.store(1, ordering: .releasing)
            start.signal()
        }

        func pause() {
            state.store(2, ordering: .releasing)
        }

        /// Waits until the worker is idle (it stops within one dispatch once it runs).
        func waitUntilIdle() {
            while state.load(ordering: .acquiring) != 0 { sched_yield() }
        }
    }

    /// The harness thread times its own `count` dispatches while the worker sends on the same
    /// chain (`shared`) or on a chain of its own: ns per dispatch on one thread with a second
    /// thread sending.
    final class TwoThreadTickRunner: Runner {
        let multiplexer = Multiplexer()
        let targets: [BenchTarget]
        let worker: Worker

        init(_ n: Int, shared: Bool) {
            targets = multiplexer.populate(n)
            let workerTargets = (0..<n).map { _ in WorkerTarget() }
            let workerResponses = SendableResponses<WorkerTarget>().on(ConcurrentVariant.workerTick) { me, value in
                me.sum &+= value
            }
            let workerChain = shared ? multiplexer.chain : ConcurrentDelegateChain()
            for target in workerTargets { workerChain.add(target, responses: workerResponses) }
            let worker = Worker(chain: workerChain, targets: workerTargets)
            self.worker = worker
            let thread = Thread { worker.loop() }
            thread.start()
        }

        var timesThreadCPU: Bool { true }

        deinit {
            worker.waitUntilIdle()
            worker.quit.store(true, ordering: .releasing)
            worker.start.signal()
        }

        @inline(never)
        func run(_ count: Int, base: Int) {
            worker.resume()
            for i in 0..<count { multiplexer.tick(base &+ i) }
            worker.pause()
        }

        /// The harness thread's targets' sum, if every worker target summed exactly what the
        /// worker sent; otherwise a value that cannot match.
        var checksum: Int {
            worker.waitUntilIdle()
            let mine = targets.tickSum
            let consistent = worker.targets.allSatisfy { $0.sum == worker.sent }
            return consistent ? mine : mine &+ 1
        }
    }
}

/// A target of the two-thread variants' worker: `BenchTarget`'s work, padded into another
/// allocation size class, so that no worker target shares a cache line with the harness
/// thread's targets (false sharing would be measured as the cost of sharing the chain).
///
/// `@unchecked Sendable` so that a concurrent chain takes it, with the same plain add as
/// `BenchTarget`.
final class WorkerTarget: @unchecked Sendable {
    // Sound: only the worker thread sends `workerTick`, the one message it answers; the harness
    // thread reads `sum` only once the worker is idle (`Worker.waitUntilIdle`, an acquiring load
    // of the state the worker released).
    var sum = 0
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
}
