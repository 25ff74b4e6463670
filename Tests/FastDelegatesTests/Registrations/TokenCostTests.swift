import CDispatchTable
import Synchronization
import Testing

@testable import FastDelegates

/// Whether the Swift runtime gave `object` a side table, as its first weak reference does: the
/// top bit of the inline reference count word (`UseSlowRC`, the 64-bit layout), which the side
/// table's pointer sets. Read on the test's own thread only.
func hasSideTable(_ object: AnyObject) -> Bool {
    let word = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        .load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
    return word >> (UInt.bitWidth - 1) == 1
}

/// The unowned reference count of `object` (the object's own one included).
func unownedCount(_ object: AnyObject) -> Int {
    Int(cdt_swift_unowned_count(Unmanaged.passUnretained(object).toOpaque()))
}

/// Issue 53: a token costs its chain nothing lasting. It holds the chain by an unowned reference
/// (so no weak side table on the chain, whether the token is dropped or kept), keeps only the
/// chain's memory while it lives, and cancels safely after the chain died, from its deinit, and
/// racing its deinit on another thread.
@Suite("Token cost")
struct TokenCostTests {
    final class Plain {}

    /// A target whose deinit cancels a token (of the chain being torn down).
    final class CancellingInDeinit: DelegateResponder, @unchecked Sendable {
        // Sound: `cancel` is written once, before the chain is shared, and read in `deinit`.
        var cancel: (@Sendable () -> Void)?
        let shared: StressShared
        static let ping = Message<Void, Void>("tokenCost.ping")
        static let responses = SendableResponses<CancellingInDeinit>().on(ping) { _ in }

        init(shared: StressShared) { self.shared = shared }

        deinit {
            cancel?()
            shared.deaths.add(1, ordering: .relaxed)
        }
    }

    @Test func theSideTableCheckSeesAWeakReference() {
        let object = Plain()
        #expect(!hasSideTable(object))
        weak let weakObject = object
        #expect(hasSideTable(object))
        withExtendedLifetime(weakObject) {}
    }

    @Test func aDelegateChainTokenMakesNoSideTableAndHoldsOnlyTheChainsMemory() {
        let log = Log()
        let chain = DelegateChain()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        chain.add(a) // the token is dropped
        #expect(!hasSideTable(chain))
        #expect(unownedCount(chain) == 1)
        let token = chain.add(b)
        #expect(!hasSideTable(chain))
        #expect(unownedCount(chain) == 2) // the chain's own and the token's
        token.cancel()
        #expect(unownedCount(chain) == 1) // a cancelled token gives it back at once
        #expect(chain.targets.map { ($0 as! Probe).name } == ["a"])
        token.cancel()
        #expect(chain.contains(a))
        withExtendedLifetime((a, b)) {}
    }

    @Test func aConcurrentTokenMakesNoSideTable() {
        let log = Log()
        let chain = ConcurrentDelegateChain()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        chain.add(a) // the token is dropped
        #expect(!hasSideTable(chain))
        #expect(unownedCount(chain) == 1)
        do {
            let token = chain.add(b)
            #expect(!hasSideTable(chain))
            #expect(unownedCount(chain) == 2)
            token.cancel()
            token.cancel()
        }
        #expect(unownedCount(chain) == 1)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["a"])
        withExtendedLifetime((a, b)) {}
    }

    @Test func tokensCancelledFromTheirChainsDeinitDoNothing() {
        let shared = StressShared()
        do {
            let chain = DelegateChain()
            let target = CancellingInDeinit(shared: shared)
            let token = chain.add(target, retention: .strong)
            // Unchecked: a `DelegateToken` is not Sendable; the deinit runs on this thread.
            let held = Unchecked(token)
            target.cancel = { held.value.cancel() }
        }
        do {
            let chain = ConcurrentDelegateChain()
            let target = CancellingInDeinit(shared: shared)
            let token = chain.add(target, retention: .strong)
            target.cancel = { token.cancel() }
        }
        #expect(shared.deaths.load(ordering: .relaxed) == 2) // each released by its chain's deinit
    }

    @Test func aConcurrentTokenOutlivingItsChainCancelsNothing() {
        let log = Log()
        let a = Probe("a", log: log)
        var tokens: [ConcurrentDelegateToken] = []
        weak var weakChain: ConcurrentDelegateChain?
        do {
            let chain = ConcurrentDelegateChain()
            weakChain = chain
            tokens.append(chain.add(a))
            tokens.append(chain.add(Probe("s", log: log), retention: .strong))
        }
        #expect(weakChain == nil)
        for token in tokens + tokens { token.cancel() }
        let chain = ConcurrentDelegateChain()
        chain.add(a)
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["a.didScroll(1)"])
    }

    /// One thread lets go of each chain (its last reference: the deinit runs there) while
    /// another cancels the chain's token: the cancel either removes the strong target first or
    /// finds the chain deinitializing and does nothing; each target dies once. Under TSan, no
    /// race.
    @Test func aCancelRacingItsChainsDeinitOnAnotherThreadIsSafe() {
        final class Box: Sendable {
            let chain: Mutex<ConcurrentDelegateChain?>
            let token: ConcurrentDelegateToken
            init(_ chain: ConcurrentDelegateChain, _ token: ConcurrentDelegateToken) {
                self.chain = Mutex(chain)
                self.token = token
            }
        }
        let shared = StressShared()
        let rounds = TestScale.count(2_000)
        let boxes = (0..<rounds).map { _ in
            let chain = ConcurrentDelegateChain()
            return Box(chain, chain.add(StressTarget(shared: shared), retention: .strong))
        }
        runOnThreads(2) { index in
            for box in boxes {
                if index == 0 {
                    let chain = box.chain.withLock { chain in
                        let taken = chain
                        chain = nil
                        return taken
                    }
                    withExtendedLifetime(chain) {} // the last reference, released here
                } else {
                    box.token.cancel()
                }
            }
        }
        #expect(shared.deaths.load(ordering: .acquiring) == rounds)
        for box in boxes { box.token.cancel() }
        #expect(shared.violations.load(ordering: .acquiring) == 0)
    }
}
