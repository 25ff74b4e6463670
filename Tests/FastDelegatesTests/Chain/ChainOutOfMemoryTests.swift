import CDispatchTable
import Testing

@testable import FastDelegates

/// The chain over a C core that runs out of memory (injected with the thread-local
/// `cdt_debug_fail_allocation_after`).
@Suite("Chain out of memory")
struct ChainOutOfMemoryTests {
    /// The copy-on-write a removal needs during a dispatch cannot be allocated: the target is
    /// skipped at once all the same, and its orphaned entries are purged after the dispatch.
    @Test(arguments: [false, true])
    func aRemovalInsideAHandlerTakesEffectWithoutMemory(forcedCollisions: Bool) {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log), c = Probe("c", log: log)
        let chain = DelegateChain(forcedCollisions: forcedCollisions)
        for probe in [a, b, c] { chain.add(probe) }
        var injected = false
        a.onScroll = { _, offset in
            guard offset == 1 else { return }
            _ = cdt_debug_fail_allocation_after(0)
            chain.remove(b)
            injected = cdt_debug_fail_allocation_after(-1) == -1
            #expect(chain.table.stats.orphaned_entries == 1)
        }
        chain.send(Scroll.didScroll, 1)
        chain.send(Scroll.didScroll, 2)
        #expect(injected)
        #expect(log.events == ["a.didScroll(1)", "c.didScroll(1)", "a.didScroll(2)", "c.didScroll(2)"])
        #expect(chain.table.stats.orphaned_entries == 0)
        #expect(chain.invariantViolation == 0)
    }
}
