import FastDelegates
import FastDelegatesTestSupport
import Synchronization
import Testing

/// `removeAwaitingCalls(_:isolation:)` keeps its word: once it returns, no call of the target
/// committed on that chain runs, whatever registration or forwarder it went through; it exempts
/// exactly the awaiting listener's own calls in its own task; and a cancelled wait ends at once.
@Suite("removeAwaitingCalls promise, concurrent chain")
struct AsyncRemovalPromiseTests {
    static let finished = Message<Int, AsyncCall<Void, Never>>("AsyncRemovalPromiseTests.finished(_:)")

    /// A latch that tasks await until the test opens it.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
        let waiting = Atomic<Int>(0)

        func wait() async {
            waiting.add(1, ordering: .sequentiallyConsistent)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let open = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// A listener whose `finished(id)` runs the test's script for that call, and counts its calls.
    final class Listener: Sendable {
        let started = Atomic<Int>(0)
        let ended = Atomic<Int>(0)
        let script: @Sendable (Listener, Int) async -> Void

        init(_ script: @escaping @Sendable (Listener, Int) async -> Void) { self.script = script }

        func finished(_ id: Int) async {
            started.add(1, ordering: .sequentiallyConsistent)
            await script(self, id)
            ended.add(1, ordering: .sequentiallyConsistent)
        }

        var running: Int {
            started.load(ordering: .sequentiallyConsistent) - ended.load(ordering: .sequentiallyConsistent)
        }

        static let responses = SendableResponses<Listener>()
            .on(requirement: AsyncRemovalPromiseTests.finished) { me, id in
                AsyncCall(me) { me in await me.finished(id) }
            }
    }

    static func send(_ chain: ConcurrentDelegateChain, _ id: Int) async {
        await AsyncRequirement.send(chain, requirement: finished, id)
    }

    /// Polls `condition` (yielding, then sleeping) until it holds or about `seconds` passed.
    ///
    /// The deadline only ends a test that would otherwise hang: a condition that holds returns at
    /// once. It is long because the whole suite runs in parallel with every other, and under
    /// ThreadSanitizer on 2 cores a task waited 20 s for a thread (a CI run failed so).
    static func eventually(within seconds: Int = 300, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    /// Lets other tasks run for a while, so that a removal that would return too early does.
    static func settle() async {
        for _ in 0..<50 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
    }

    /// A removal started after `unregister` took the listener out, while its gated call runs,
    /// must not return before the call ends.
    func awaitsCallThroughRemovedRegistration(
        expectedResult: Bool, _ unregister: (ConcurrentDelegateChain, Listener, ConcurrentDelegateToken) -> Void
    ) async throws {
        let gate = Gate()
        let chain = ConcurrentDelegateChain()
        let listener = Listener { _, _ in await gate.wait() }
        let token = chain.add(listener, responses: Listener.responses)
        let send = Task { await Self.send(chain, 1) }
        #expect(await Self.eventually { gate.waiting.load(ordering: .sequentiallyConsistent) == 1 })
        unregister(chain, listener, token)
        let returned = Atomic<Bool>(false)
        let runningAtReturn = Atomic<Int>(-1)
        let removal = Task {
            let wasIn = try await chain.removeAwaitingCalls(listener)
            runningAtReturn.store(listener.running, ordering: .sequentiallyConsistent)
            returned.store(true, ordering: .sequentiallyConsistent)
            return wasIn
        }
        await Self.settle()
        let early = returned.load(ordering: .sequentiallyConsistent)
        #expect(!early, "returned while the committed call runs")
        gate.open()
        #expect(try await removal.value == expectedResult)
        #expect(runningAtReturn.load(ordering: .sequentiallyConsistent) == 0)
        await send.value
    }

    @Test func awaitsACallCommittedBeforeATokenCancel() async throws {
        try await awaitsCallThroughRemovedRegistration(expectedResult: false) { _, _, token in token.cancel() }
    }

    @Test func awaitsACallCommittedBeforeARemove() async throws {
        try await awaitsCallThroughRemovedRegistration(expectedResult: false) { chain, listener, _ in
            chain.remove(listener)
        }
    }

    @Test func awaitsACallCommittedBeforeARemoveAll() async throws {
        try await awaitsCallThroughRemovedRegistration(expectedResult: false) { chain, _, _ in chain.removeAll() }
    }

    @Test func awaitsACallCommittedBeforeARemoveAndReAdd() async throws {
        try await awaitsCallThroughRemovedRegistration(expectedResult: true) { chain, listener, _ in
            chain.remove(listener)
            chain.add(listener, responses: Listener.responses)
        }
    }

    /// Inside its call on chain A, a listener awaits its removal from chain B, where another
    /// task's call of it runs: the exemption is for chain A's own call, not for chain B's.
    @Test func theExemptionDoesNotCoverAnotherChain() async throws {
        let gate = Gate()
        let a = ConcurrentDelegateChain()
        let b = ConcurrentDelegateChain()
        let runningOnBAtReturn = Atomic<Int>(-1)
        let onB = Atomic<Int>(0)
        let listener = Listener { me, id in
            if id == 1 {
                onB.add(1, ordering: .sequentiallyConsistent)
                await gate.wait()
                onB.subtract(1, ordering: .sequentiallyConsistent)
            } else {
                _ = try? await b.removeAwaitingCalls(me)
                runningOnBAtReturn.store(onB.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            }
        }
        a.add(listener, responses: Listener.responses)
        b.add(listener, responses: Listener.responses)
        let sendOnB = Task { await Self.send(b, 1) }
        #expect(await Self.eventually { gate.waiting.load(ordering: .sequentiallyConsistent) == 1 })
        let sendOnA = Task { await Self.send(a, 2) }
        await Self.settle()
        gate.open()
        await sendOnA.value
        await sendOnB.value
        #expect(runningOnBAtReturn.load(ordering: .sequentiallyConsistent) == 0)
    }

    /// A task spawned in the listener's call inherits no exemption: its removal waits for the
    /// listener's call running on another task.
    @Test func aSpawnedTaskInheritsNoExemption() async throws {
        final class Spawned: Sendable {
            let runningAtReturn = Atomic<Int>(-1)
            let removal = Mutex<Task<Void, Never>?>(nil)
        }
        let gate = Gate()
        let chain = ConcurrentDelegateChain()
        let spawned = Spawned()
        let listener = Listener { me, id in
            if id == 1 {
                await gate.wait()
            } else {
                let task = Task {
                    _ = try? await chain.removeAwaitingCalls(me)
                    spawned.runningAtReturn.store(me.running, ordering: .sequentiallyConsistent)
                }
                spawned.removal.withLock { $0 = task }
            }
        }
        chain.add(listener, responses: Listener.responses)
        let gated = Task { await Self.send(chain, 1) }
        #expect(await Self.eventually { gate.waiting.load(ordering: .sequentiallyConsistent) == 1 })
        await Self.send(chain, 2)
        await Self.settle()
        let early = spawned.runningAtReturn.load(ordering: .sequentiallyConsistent)
        #expect(early == -1, "returned while the gated call runs")
        gate.open()
        await gated.value
        await spawned.removal.withLock { $0 }?.value
        #expect(spawned.runningAtReturn.load(ordering: .sequentiallyConsistent) == 0)
    }

    /// The listener's `outer` call sends `inner` on the same chain, and `inner` awaits the
    /// listener's removal: both calls are its own, in its task, so the removal returns.
    @Test func nestedSelfRemovalReturns() async throws {
        let chain = ConcurrentDelegateChain()
        let removedInside = Atomic<Bool>(false)
        let listener = Listener { me, id in
            if id == 1 {
                await Self.send(chain, 2)
            } else {
                _ = try? await chain.removeAwaitingCalls(me)
                removedInside.store(true, ordering: .sequentiallyConsistent)
            }
        }
        chain.add(listener, responses: Listener.responses)
        let send = Task { await Self.send(chain, 1) }
        let returned = await Self.eventually { removedInside.load(ordering: .sequentiallyConsistent) }
        #expect(returned, "the nested self-removal waits for its own outer call")
        if returned {
            await send.value
            #expect(chain.count == 0)
        }
    }

    /// A cancelled wait ends at once with `CancellationError`, while the call still runs.
    @Test func aCancelledWaitThrowsAtOnce() async throws {
        let gate = Gate()
        let chain = ConcurrentDelegateChain()
        let listener = Listener { _, _ in await gate.wait() }
        chain.add(listener, responses: Listener.responses)
        let send = Task { await Self.send(chain, 1) }
        #expect(await Self.eventually { gate.waiting.load(ordering: .sequentiallyConsistent) == 1 })
        let finished = Atomic<Bool>(false)
        let removal = Task {
            defer { finished.store(true, ordering: .sequentiallyConsistent) }
            return try await chain.removeAwaitingCalls(listener)
        }
        await Self.settle()
        removal.cancel()
        let endedAtOnce = await Self.eventually { finished.load(ordering: .sequentiallyConsistent) }
        let runningAtEnd = listener.running
        gate.open()
        let result = await removal.result
        await send.value
        #expect(endedAtOnce, "the cancelled wait went on until the call ended")
        #expect(runningAtEnd == 1)
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(chain.count == 0)
    }

    /// A wait begun in a task already cancelled throws at once, after removing the target.
    @Test func aWaitInACancelledTaskThrows() async throws {
        let gate = Gate()
        let chain = ConcurrentDelegateChain()
        let listener = Listener { _, _ in await gate.wait() }
        chain.add(listener, responses: Listener.responses)
        let send = Task { await Self.send(chain, 1) }
        #expect(await Self.eventually { gate.waiting.load(ordering: .sequentiallyConsistent) == 1 })
        let finished = Atomic<Bool>(false)
        let removal = Task {
            defer { finished.store(true, ordering: .sequentiallyConsistent) }
            withUnsafeCurrentTask { $0?.cancel() }
            return try await chain.removeAwaitingCalls(listener)
        }
        let endedAtOnce = await Self.eventually { finished.load(ordering: .sequentiallyConsistent) }
        let runningAtEnd = listener.running
        gate.open()
        let result = await removal.result
        await send.value
        #expect(endedAtOnce, "the wait in a cancelled task went on until the call ended")
        #expect(runningAtEnd == 1)
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(chain.count == 0)
    }

    /// A `DelegateChain` forwarding the requirement to the concurrent chain commits its call
    /// there: the inner chain's removal waits for it.
    @Test func awaitsACallCommittedThroughAForwarder() async throws {
        let gate = Gate()
        let inner = ConcurrentDelegateChain()
        let listener = Listener { _, _ in await gate.wait() }
        inner.add(listener, responses: Listener.responses)
        let send = Task {
            let outer = DelegateChain()
            outer.add(inner, retention: .strong) { $0.forwarding(Self.finished) }
            await AsyncRequirement.send(outer, requirement: Self.finished, 1)
        }
        #expect(await Self.eventually { gate.waiting.load(ordering: .sequentiallyConsistent) == 1 })
        let returned = Atomic<Bool>(false)
        let runningAtReturn = Atomic<Int>(-1)
        let removal = Task {
            let wasIn = try await inner.removeAwaitingCalls(listener)
            runningAtReturn.store(listener.running, ordering: .sequentiallyConsistent)
            returned.store(true, ordering: .sequentiallyConsistent)
            return wasIn
        }
        await Self.settle()
        let early = returned.load(ordering: .sequentiallyConsistent)
        #expect(!early, "returned while the forwarded call runs")
        gate.open()
        #expect(try await removal.value)
        #expect(runningAtReturn.load(ordering: .sequentiallyConsistent) == 0)
        await send.value
    }

    /// A send through a forwarder on one task, the inner chain's removal on another, many
    /// times: once the removal returns, the listener is never called (the check and the call are
    /// one step against the inner chain's removals).
    @Test func noForwardedCallStartsAfterTheRemovalReturns() async throws {
        let rounds = TestScale.count(20_000, sanitizerDivisor: 20)
        let violations = Atomic<Int>(0)
        for round in 0..<rounds {
            let inner = ConcurrentDelegateChain()
            let forbidden = Atomic<Bool>(false)
            let listener = Listener { _, _ in
                if forbidden.load(ordering: .sequentiallyConsistent) { violations.add(1, ordering: .relaxed) }
            }
            inner.add(listener, responses: Listener.responses)
            async let sent: Void = {
                let outer = DelegateChain()
                outer.add(inner, retention: .strong) { $0.forwarding(Self.finished) }
                await AsyncRequirement.send(outer, requirement: Self.finished, round)
            }()
            async let removal: Bool = {
                let wasIn = (try? await inner.removeAwaitingCalls(listener)) ?? false
                forbidden.store(true, ordering: .sequentiallyConsistent)
                return wasIn
            }()
            _ = await (sent, removal)
        }
        #expect(violations.load(ordering: .relaxed) == 0)
    }
}
