import Foundation
import Testing

@testable import FastDelegates

/// `make test` runs the concurrent suites twice: as the platform gives (on Linux, fence-free
/// sends over `membarrier`) and with FASTDELEGATES_FULL_FENCES=1, the full fences every platform
/// without a process-wide barrier uses.
@Suite("Fence mode of the concurrent chain")
struct FenceModeTests {
    @Test func theEnvironmentCanForceFullFences() {
        let forced = ProcessInfo.processInfo.environment["FASTDELEGATES_FULL_FENCES"] == "1"
        if forced { #expect(!ConcurrentDelegateChain.hasFenceFreeSends) }
        #expect(ConcurrentDelegateChain.hasFenceFreeSends == ReadSide.shared.asymmetric)
    }

    /// Sends and a removal on another thread behave the same in either mode (the suites of
    /// `RemovalWaitTests` and `ConcurrentStressTests` cover the rest).
    @Test func aRemovalWaitsInEitherMode() {
        let chain = ConcurrentDelegateChain()
        let target = BlockingTarget()
        chain.add(target)
        let sender = startThread { chain.send(BlockingTarget.block, 0) }
        target.entered.wait()
        let remover = startThread { chain.remove(target) }
        usleep(50_000)
        #expect(!remover.returned.isSet)
        target.release.signal()
        remover.done.wait()
        sender.done.wait()
        #expect(!chain.contains(target))
    }
}
