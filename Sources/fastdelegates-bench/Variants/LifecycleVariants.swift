import CHeapStats
import FastDelegates
import FastDelegatesFoundation
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `lifecycle` scenario (issue 53): what one instance costs, not one send. A dispatch is one
/// cycle: create the dispatcher, add the N listeners, send one message (each listener adds the
/// value into its own sum, as in the tick scenario), and drop the dispatcher. The listeners live
/// through the whole run, as the views of a reused table cell do. The hand-written forwarder
/// (`handwritten-forwarder-lifecycle`, one `weak var` per listener) is the ratio's reference.
///
/// ``LifecycleMemory`` measures the same subjects' heap bytes and blocks per live instance.
enum LifecycleVariants {
    /// The N the plan measures.
    static let targetCounts = [1, 4]

    static func variant<Subject: LifecycleSubject>(_: Subject.Type) -> Variant {
        Variant(name: Subject.name) { scenario, n in
            guard scenario == .lifecycle, n <= Subject.maxTargets else { return nil }
            return AnyRunner(LifecycleRunner<Subject>(targets: LifecycleTarget.make(n)))
        }
    }

    /// The hand-written peer: a final class with one `weak var` per listener, forwarding to each.
    enum HandWrittenForwarder: LifecycleSubject {
        static let name = "handwritten-forwarder-lifecycle"
        static let maxTargets = 4

        final class Forwarder: LifecycleDelegate {
            weak var a: (any LifecycleDelegate)?
            weak var b: (any LifecycleDelegate)?
            weak var c: (any LifecycleDelegate)?
            weak var d: (any LifecycleDelegate)?

            func scrollTick(_ value: Int) {
                a?.scrollTick(value)
                b?.scrollTick(value)
                c?.scrollTick(value)
                d?.scrollTick(value)
            }

            func firstResponder(_ value: Int) -> Int { a?.firstResponder(value) ?? 0 }
        }

        @inline(__always)
        static func make(_ targets: [LifecycleTarget], value: Int) -> Forwarder {
            let forwarder = Forwarder()
            let count = targets.count
            if count > 0 { forwarder.a = targets[0] }
            if count > 1 { forwarder.b = targets[1] }
            if count > 2 { forwarder.c = targets[2] }
            if count > 3 { forwarder.d = targets[3] }
            forwarder.scrollTick(value)
            return forwarder
        }
    }

    /// The naive multicast: an array of weak boxes (``MulticastDelegate``).
    enum NaiveMulticast: LifecycleSubject {
        static let name = "naive-weak-multicast-lifecycle"

        @inline(__always)
        static func make(_ targets: [LifecycleTarget], value: Int) -> MulticastDelegate<any LifecycleDelegate> {
            let multicast = MulticastDelegate<any LifecycleDelegate>()
            for target in targets { multicast.add(target) }
            multicast.invoke { $0.scrollTick(value) }
            return multicast
        }
    }

    /// A `DelegateChain`, each listener registered for one message.
    enum Chain: LifecycleSubject {
        static let name = "fastdelegates-lifecycle"

        @inline(__always)
        static func make(_ targets: [LifecycleTarget], value: Int) -> DelegateChain {
            let chain = DelegateChain()
            for target in targets { chain.add(target) }
            chain.send(Bench.tick, value)
            return chain
        }
    }

    /// A `ConcurrentDelegateChain`, each listener registered for one message.
    enum Concurrent: LifecycleSubject {
        static let name = "concurrent-lifecycle"

        @inline(__always)
        static func make(_ targets: [LifecycleTarget], value: Int) -> ConcurrentDelegateChain {
            let chain = ConcurrentDelegateChain()
            for target in targets { chain.add(target) }
            chain.send(Bench.tick, value)
            return chain
        }
    }

    /// A `@DelegateProxy` generated proxy (`BenchScrollDelegateProxy`, the checked-in expansion).
    enum GeneratedProxy: LifecycleSubject {
        static let name = "fastdelegates-proxy-lifecycle"

        @inline(__always)
        static func make(_ targets: [LifecycleTarget], value: Int) -> BenchScrollDelegateProxy {
            let proxy = BenchScrollDelegateProxy()
            for target in targets { proxy.add(target) }
            proxy.scrollTick(value)
            return proxy
        }
    }

    /// A generated proxy of an 8-requirement protocol (`BenchCellDelegateProxy`), whose listeners
    /// implement 2 of them: a cell's delegate, as a table view makes one per cell.
    enum GeneratedProxy8: LifecycleSubject {
        static let name = "fastdelegates-proxy8-lifecycle"

        @inline(__always)
        static func make(_ targets: [LifecycleTarget], value: Int) -> BenchCellDelegateProxy {
            let proxy = BenchCellDelegateProxy()
            for target in targets { proxy.add(target) }
            proxy.cellDidTick(value)
            return proxy
        }
    }

    /// `FastDelegatesFoundation`'s `XMLParserListenerProxy` (20 requirements): its `add`, and one
    /// requirement (`parserDidStartDocument`) called on the proxy directly, with no parse. The
    /// requirement carries no Int: the listener adds ``XMLProxy/value``, set before the send.
    enum XMLProxy: LifecycleSubject {
        static let name = "foundation-proxy-lifecycle"
        nonisolated(unsafe) static var value = 0
        nonisolated(unsafe) static let parser = XMLParser(data: Data())

        @inline(__always)
        static func make(_ targets: [LifecycleTarget], value: Int) -> XMLParserListenerProxy {
            let proxy = XMLParserListenerProxy()
            for target in targets { proxy.add(target) }
            Self.value = value
            proxy.parserDidStartDocument(parser)
            return proxy
        }
    }
}

/// What the hand-written forwarder and the naive multicast of the lifecycle scenario call: a
/// protocol of its own, not the tick scenario's ``ScrollDelegate``, whose conformers the floors'
/// loops dispatch over (a third conformer there made the optimizer retain and release each
/// element of `strong-array`'s loop: 283 instead of 78 instructions per dispatch at N = 4).
protocol LifecycleDelegate: AnyObject {
    func scrollTick(_ value: Int)
    func firstResponder(_ value: Int) -> Int
}

/// One lifecycle variant: how it makes an instance with its listeners added and one message sent.
protocol LifecycleSubject: SendableMetatype {
    associatedtype Instance: AnyObject
    /// The variant's name in reports and `--filter`.
    static var name: String { get }
    /// The most listeners it takes (the hand-written forwarder has 4 slots).
    static var maxTargets: Int { get }
    /// A new instance, `targets` added, `value` sent once.
    static func make(_ targets: [LifecycleTarget], value: Int) -> Instance
}

extension LifecycleSubject {
    static var maxTargets: Int { .max }
}

/// Where ``LifecycleRunner`` puts each cycle's instance until the next cycle drops it.
nonisolated(unsafe) var lifecycleSink: AnyObject?

/// `count` cycles: make (create, add, send) and drop.
final class LifecycleRunner<Subject: LifecycleSubject>: Runner {
    let targets: [LifecycleTarget]
    init(targets: [LifecycleTarget]) { self.targets = targets }

    @inline(never)
    func run(_ count: Int, base: Int) {
        // Into a global: the instance escapes, so it is a real heap object (not promoted to the
        // stack), and the next cycle's assignment drops it.
        for i in 0..<count { lifecycleSink = Subject.make(targets, value: base &+ i) }
        lifecycleSink = nil
    }

    var checksum: Int { targets.tickSum }
}

/// The listener of every lifecycle variant: answers the tick, and nothing else, in each kind.
final class LifecycleTarget: DelegateResponder, LifecycleDelegate, BenchScrollDelegate, BenchCellDelegate,
    XMLParserListener, SummingTarget, @unchecked Sendable
{
    // Sound: only the harness thread sends to it and reads `sum`, as with `BenchTarget`.
    var sum = 0
    var selected = 0

    init() {}
    convenience init(churnBank _: Bank) { self.init() }

    static let responses = SendableResponses<LifecycleTarget>()
        .on(Bench.tick) { me, value in me.sum &+= value }

    func scrollTick(_ value: Int) { sum &+= value }
    func firstResponder(_ value: Int) -> Int { value &+ 1 }
    func cellDidTick(_ value: Int) { sum &+= value }
    /// The second requirement of `BenchCellDelegate` it implements (the scenario sends only the first).
    func cellDidSelect(_ value: Int) { selected = value }
    func parserDidStartDocument(_ parser: XMLParser) { sum &+= LifecycleVariants.XMLProxy.value }

    static func make(_ n: Int) -> [LifecycleTarget] { (0..<n).map { _ in LifecycleTarget() } }
}

/// Heap bytes and blocks per live instance of each lifecycle variant (issue 53): K instances made
/// as one cycle makes them (created, the N listeners added, one message sent) and kept alive;
/// glibc's in-use bytes (`mallinfo2().uordblks`, less the interposer's header of each block) and
/// malloc-interposer's allocations minus frees, before and after, divided by K; then all dropped, and the bytes still in use beyond the
/// baseline reported (0, or a few hundred bytes of the allocator's own, when nothing leaks).
enum LifecycleMemory {
    struct Row: Codable, Equatable {
        let variant: String
        let targets: Int
        /// Instances measured (K).
        let instances: Int
        /// In-use heap bytes per live instance; nil where glibc's figures are unavailable.
        let bytesPerInstance: Double?
        /// Heap blocks (mallocs minus frees) per live instance; nil without malloc-interposer.
        let blocksPerInstance: Double?
        /// In-use bytes beyond the baseline once all K are dropped; nil as `bytesPerInstance`.
        let bytesLeftAfterFree: Int?
        /// Whether every listener received every instance's one message.
        let verified: Bool
    }

    /// The bytes malloc-interposer adds before each block it counts.
    static let interposerHeader = 16

    /// The subjects, in ``LifecycleVariants/all``'s order.
    static let subjects: [any LifecycleSubject.Type] = [
        LifecycleVariants.HandWrittenForwarder.self, LifecycleVariants.NaiveMulticast.self,
        LifecycleVariants.Chain.self, LifecycleVariants.Concurrent.self, LifecycleVariants.GeneratedProxy.self,
        LifecycleVariants.GeneratedProxy8.self, LifecycleVariants.XMLProxy.self,
    ]

    /// Measures every subject `include` selects at each N, `instances` live instances each.
    static func measure(instances: Int, counting: Bool, including include: (String) -> Bool) -> [Row] {
        var rows: [Row] = []
        for n in LifecycleVariants.targetCounts {
            for subject in subjects where include(subject.name) && n <= subject.maxTargets {
                rows.append(measure(subject, targets: n, instances: instances, counting: counting))
            }
        }
        return rows
    }

    static func measure<Subject: LifecycleSubject>(
        _: Subject.Type, targets n: Int, instances: Int, counting: Bool
    ) -> Row {
        let targets = LifecycleTarget.make(n)
        // One-time costs (messages, metadata, the listeners' weak side tables) before the baseline.
        for value in 0..<16 { lifecycleSink = Subject.make(targets, value: value) }
        lifecycleSink = nil
        var live: [Subject.Instance] = []
        live.reserveCapacity(instances)
        let available = cdt_heap_stats_available() != 0
        let before = cdt_heap_in_use_bytes()
        var blocks: Int?
        if counting {
            let statistics = AllocationCounter.statistics {
                for value in 0..<instances { live.append(Subject.make(targets, value: value)) }
            }
            blocks = statistics.mallocCount - statistics.freeCount
        } else {
            for value in 0..<instances { live.append(Subject.make(targets, value: value)) }
        }
        let held = cdt_heap_in_use_bytes()
        live.removeAll(keepingCapacity: true)
        let after = cdt_heap_in_use_bytes()
        // The preloaded interposer prefixes each block with a 16-byte header (malloc-interposer's
        // `malloc_header_t`), which glibc's chunks, 16-byte granular, then hold: not the subject's.
        let headers = (blocks ?? 0) &* interposerHeader
        let expected = (instances &* (instances &- 1) / 2) &+ (0..<16).reduce(0, +)
        return Row(
            variant: Subject.name, targets: n, instances: instances,
            bytesPerInstance: available ? Double(Int(held) - Int(before) - headers) / Double(instances) : nil,
            blocksPerInstance: blocks.map { Double($0) / Double(instances) },
            bytesLeftAfterFree: available ? Int(after) - Int(before) : nil,
            verified: targets.allSatisfy { $0.sum == expected })
    }
}
