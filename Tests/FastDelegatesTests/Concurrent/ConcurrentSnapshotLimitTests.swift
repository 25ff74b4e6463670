import FastDelegatesTestSupport
import Testing

@testable import FastDelegates

/// A concurrent chain's snapshot keeps each message's responders in `Int32` ranges: past
/// `Int32.max` (target, message) pairs it stops with a precondition naming the limit instead of
/// wrapping. Reached with a test limit of a few pairs.
@Suite("Concurrent snapshot pair limit")
struct ConcurrentSnapshotLimitTests {
    @Test func aSnapshotAtTheLimitIsBuilt() {
        let chain = ConcurrentDelegateChain()
        let probe = Probe("p", log: Log())
        chain.add(probe)
        let pairs = chain.snapshotEntryCount
        #expect(pairs > 0)
        #expect(chain.buildSnapshotForTesting(pairLimit: pairs) == pairs)
        withExtendedLifetime(probe) {}
    }

    @Test func aSnapshotPastTheLimitStopsWithAPrecondition() async {
        await #expect(processExitsWith: .failure) {
            let chain = ConcurrentDelegateChain()
            let probe = Probe("p", log: Log())
            chain.add(probe)
            _ = chain.buildSnapshotForTesting(pairLimit: chain.snapshotEntryCount - 1)
            withExtendedLifetime(probe) {}
        }
    }
}
