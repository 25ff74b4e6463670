import CHeapStats
import FastDelegates
import FastDelegatesFoundation
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 53: proxies made and dropped, each with a listener added and one message sent, give
/// back every byte. The measure is glibc's in-use heap (`mallinfo2().uordblks`, read by `cdt_heap_in_use_bytes`), so the test runs
/// on Linux only, and not under a sanitizer, whose allocator glibc does not see.
@Suite("Proxies made and dropped leave nothing behind")
struct ProxyLifecycleLeakTests {
    /// Counts `parserDidStartDocument`.
    final class StartCounter: XMLParserListener {
        var starts = 0
        func parserDidStartDocument(_ parser: XMLParser) { starts &+= 1 }
    }

    static let proxies = 100_000
    static let warmUp = 1_000
    /// What the heap may grow by over all the proxies: far less than one block per proxy.
    static let allowedGrowth = 64 * 1024
    /// Measurements taken before the test fails (see the test).
    static let attempts = 3

    /// Makes `count` proxies, each with `listener` added and one message sent, and drops each.
    @inline(never)
    static func makeAndDrop(_ count: Int, listener: StartCounter, parser: XMLParser) {
        for _ in 0..<count {
            let proxy = XMLParserListenerProxy()
            proxy.add(listener)
            proxy.parserDidStartDocument(parser)
        }
    }

    /// glibc's malloc is the one in use: not another C library, not a sanitizer's allocator
    /// (ASan, TSan), of which `mallinfo2` counts nothing.
    static let measurable = cdt_heap_stats_available() != 0

    @Test(
        .enabled(
            if: measurable,
            "needs glibc's mallinfo2, which does not see a sanitizer's allocator (under a sanitizer, LeakSanitizer covers leaks)"
        ))
    func aHundredThousandXMLProxiesMadeAndDroppedLeaveNoBlockBehind() {
        let listener = StartCounter()
        let parser = XMLParser(data: Data())
        // One-time caches (the requirements' messages, the runtime's metadata) before the baseline.
        Self.makeAndDrop(Self.warmUp, listener: listener, parser: parser)
        // The heap is the process's: tests running in parallel allocate and free in it too. A
        // proxy that leaked one block would grow it by megabytes in every attempt; noise from
        // elsewhere passes in one of a few.
        var growths: [Int] = []
        for _ in 0..<Self.attempts {
            let before = cdt_heap_in_use_bytes()
            Self.makeAndDrop(Self.proxies, listener: listener, parser: parser)
            let after = cdt_heap_in_use_bytes()
            let growth = Int(after) - Int(before)
            growths.append(growth)
            if growth < Self.allowedGrowth { break }
        }
        #expect(listener.starts == Self.warmUp + growths.count * Self.proxies)
        let growth = growths.min() ?? 0
        #expect(
            growth < Self.allowedGrowth,
            "in-use heap grew by \(growths) bytes over \(Self.proxies) proxies in each attempt (\(Double(growth) / Double(Self.proxies)) per proxy at least)"
        )
    }
}
