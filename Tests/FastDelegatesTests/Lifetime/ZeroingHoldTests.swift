import CDispatchTable
import Dispatch
import Synchronization
import Testing

@_spi(Testing) @testable import FastDelegates

/// A plain class (no conformance, no stored property for the chain) that logs its calls and
/// its death: chains hold it on the zeroing fast path by default.
final class Zeroed: DelegateResponder, @unchecked Sendable {
    // Sound: `name` and `log` are immutable and `Sendable`; the hooks are written by the test's
    // own thread while no send to the target runs and no other thread releases it, and a test
    // that sends or releases on another thread starts that thread after the write.
    let name: String
    let log: Log
    /// Run inside the didScroll handler.
    var onScroll: ((Zeroed) -> Void)?
    /// Run inside deinit.
    var onDeinit: (() -> Void)?

    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    deinit {
        log.record("\(name).deinit")
        onDeinit?()
    }

    static let responses = SendableResponses<Zeroed>()
        .on(Scroll.didScroll) { me, offset in
            me.log.record("\(me.name).didScroll(\(offset))")
            me.onScroll?(me)
        }
        .on(Scroll.viewForZooming) { me in "view of \(me.name)" }
}

/// Keeps a target alive until a handler lets it go.
final class Holder {
    var target: Zeroed?
}

/// A plain class that chains hold with a Swift `weak` reference, as they hold Objective-C-rooted
/// objects on Apple platforms.
final class WeakPathMortal: DelegateResponder, Sendable {
    let name: String
    let log: Log
    init(_ name: String, log: Log) {
        _ = Self.onWeakPath
        self.name = name
        self.log = log
    }
    deinit { log.record("\(name).deinit") }
    private static let onWeakPath: Void = useWeakReferenceHold(for: WeakPathMortal.self)
    static let responses = SendableResponses<WeakPathMortal>()
        .on(Scroll.didScroll) { me, offset in me.log.record("\(me.name).didScroll(\(offset))") }
}

class NativeBase {}
final class NativeLeaf: NativeBase {}

@Suite("The weak hold's decision")
struct WeakHoldDecisionTests {
    @Test func aClassWhoseRootIsNativeIsHeldZeroingAndAnyOtherRootFallsBackToAWeakReference() {
        let parent: (AnyClass) -> AnyClass? = { $0 == NativeLeaf.self ? NativeBase.self : nil }
        let noMetaclass: (AnyClass) -> Bool = { _ in false }
        // The walk reaches the root (NativeBase) and asks about it alone.
        var asked: [ObjectIdentifier] = []
        let native = weakHold(for: NativeLeaf.self, superclass: parent, isMetaclass: noMetaclass) {
            asked.append(ObjectIdentifier($0))
            return true
        }
        #expect(native == .zeroing)
        #expect(asked == [ObjectIdentifier(NativeBase.self)])
        // An Objective-C root (as NSObject on Apple platforms) means a weak reference.
        #expect(
            weakHold(for: NativeLeaf.self, superclass: parent, isMetaclass: noMetaclass, isNativeRoot: { _ in false })
                == .weakReference)
        #expect(
            weakHold(
                for: NativeBase.self, superclass: parent, isMetaclass: noMetaclass,
                isNativeRoot: { $0 == NativeBase.self }) == .zeroing)
    }

    /// A class object on Apple platforms (`NativeLeaf.self as AnyObject`) is an Objective-C
    /// object whose class is a metaclass. The metaclasses' superclass chain ends, past the root
    /// metaclass, at the root *class*: for a Swift class object, Swift's native root, which the
    /// walk alone would answer with the zeroing hold (and `swift_tryRetain` on metadata). Stand-ins
    /// play the metaclasses here: LeafMeta -> RootMeta -> Root.
    @Test func aClassObjectTakesTheWeakReferenceHoldWhateverItsMetaclassChainEndsIn() {
        final class LeafMeta {}
        final class RootMeta {}
        final class Root {}
        let darwinLikeParent: (AnyClass) -> AnyClass? = {
            if $0 == LeafMeta.self { return RootMeta.self }
            if $0 == RootMeta.self { return Root.self }
            return nil
        }
        let isMeta: (AnyClass) -> Bool = { $0 == LeafMeta.self || $0 == RootMeta.self }
        let isNativeRoot: (AnyClass) -> Bool = { $0 == Root.self }
        #expect(
            ObjectIdentifier(rootClass(of: LeafMeta.self, superclass: darwinLikeParent)) == ObjectIdentifier(Root.self))
        // Without the metaclass check, the walk would pick the zeroing hold:
        #expect(
            weakHold(
                for: LeafMeta.self, superclass: darwinLikeParent, isMetaclass: { _ in false },
                isNativeRoot: isNativeRoot) == .zeroing)
        // With it, a class object takes the weak reference, without walking or asking for a root.
        var walked = false
        #expect(
            weakHold(
                for: LeafMeta.self,
                superclass: {
                    walked = true
                    return darwinLikeParent($0)
                }, isMetaclass: isMeta,
                isNativeRoot: isNativeRoot) == .weakReference)
        #expect(!walked)
        // The root class itself, as a target's class, is an instance's class: decided by its root.
        #expect(
            weakHold(for: Root.self, superclass: darwinLikeParent, isMetaclass: isMeta, isNativeRoot: isNativeRoot)
                == .zeroing)
    }

    /// The native root is whatever a class declared in Swift with no superclass ends in
    /// (`NativeRootProbe`), not a class looked up by name.
    @Test func theNativeRootIsFoundFromAProbeClass() {
        final class SwiftObjectStandIn {}
        final class NSObjectStandIn {}
        final class ObjCRooted {}
        // Apple-like lookups: Swift classes end in the runtime's root, Objective-C ones in NSObject.
        let parent: (AnyClass) -> AnyClass? = {
            if $0 == NativeRootProbe.self || $0 == NativeBase.self { return SwiftObjectStandIn.self }
            if $0 == NativeLeaf.self { return NativeBase.self }
            if $0 == ObjCRooted.self { return NSObjectStandIn.self }
            return nil
        }
        let nativeRoot = ObjectIdentifier(rootClass(of: NativeRootProbe.self, superclass: parent))
        #expect(nativeRoot == ObjectIdentifier(SwiftObjectStandIn.self))
        let decide = { (type: AnyClass) in
            weakHold(
                for: type, superclass: parent, isMetaclass: { _ in false },
                isNativeRoot: { ObjectIdentifier($0) == nativeRoot })
        }
        #expect(decide(NativeLeaf.self) == .zeroing)
        #expect(decide(ObjCRooted.self) == .weakReference)
        // Here, with the Swift runtime's own superclass lookup: a Swift class's root is the
        // topmost Swift class (there is no hidden root), and the probe is its own root.
        #expect(
            ObjectIdentifier(rootClass(of: NativeLeaf.self, superclass: { _getSuperclass($0) }))
                == ObjectIdentifier(NativeBase.self))
        #expect(
            ObjectIdentifier(rootClass(of: NativeRootProbe.self, superclass: { _getSuperclass($0) }))
                == ObjectIdentifier(NativeRootProbe.self))
    }

    /// On Apple platforms a class object is an immortal Objective-C object: it takes the weak
    /// reference hold and is never zeroed (compiled and run only on macOS). Elsewhere it is not
    /// an object: `as AnyObject` boxes the metatype in a new native Swift object each time. Such
    /// a box is held like any native object: weakly it dies at once (nothing else owns it),
    /// strongly it lives and hands the metatype back.
    @Test func aClassObjectCastToAnyObjectIsHeldAsWhatItIsOnEachPlatform() {
        #if canImport(ObjectiveC)
        // Apple platforms: the class object itself, an Objective-C object of a metaclass.
        let classObject = NativeLeaf.self as AnyObject
        #expect(weakHold(for: NativeLeaf.self) == .zeroing) // the probe's root is NativeLeaf's
        #expect(weakHold(for: type(of: classObject)) == .weakReference)
        let chain = DelegateChain()
        chain.add(classObject, responses: Responses<AnyObject>().on(Scroll.viewForZooming) { _ in "class" })
        #expect(chain.holdForTesting(of: classObject) == .weak)
        #expect(chain.send(Scroll.viewForZooming) == .some("class")) // immortal: never zeroed
        #expect(chain.contains(NativeLeaf.self as AnyObject))
        #else
        let first = NativeLeaf.self as AnyObject, second = NativeLeaf.self as AnyObject
        #expect(ObjectIdentifier(first) != ObjectIdentifier(second)) // a box per cast: no identity of its own
        #expect(weakHold(for: type(of: first)) == .zeroing)
        let chain = DelegateChain()
        var seen: [ObjectIdentifier] = []
        let unbox = Responses<AnyObject>().on(Scroll.didScroll) { me, _ in
            if let type = (me as Any) as? NativeBase.Type { seen.append(ObjectIdentifier(type)) }
        }
        chain.add(NativeLeaf.self as AnyObject, responses: unbox)
        #expect(chain.count == 0) // the weakly held box died with the statement
        chain.add(first, retention: .strong, responses: unbox)
        #expect(chain.holdForTesting(of: first) == .strong)
        #expect(!chain.contains(second))
        chain.send(Scroll.didScroll, 1)
        #expect(seen == [ObjectIdentifier(NativeLeaf.self)])
        #expect(chain.count == 1)
        #endif
    }

    @Test func everyPlainSwiftClassIsHeldZeroingHere() {
        #if !canImport(ObjectiveC)
        #expect(weakHold(for: NativeLeaf.self) == .zeroing)
        #expect(weakHold(for: Zeroed.self) == .zeroing)
        #endif
        let log = Log()
        let chain = DelegateChain()
        let weakPath = WeakPathMortal("w", log: log), native = Zeroed("n", log: log)
        #expect(weakHold(for: WeakPathMortal.self) == .weakReference) // sent there by its init
        chain.add(weakPath)
        chain.add(native)
        #expect(chain.holdForTesting(of: weakPath) == .weak)
        #expect(chain.holdForTesting(of: native) == .zeroing)
        withExtendedLifetime((weakPath, native)) {}
    }

    @Test func theWeakReferencePathKeepsTheContract() {
        let log = Log()
        let chain = DelegateChain()
        let survivor = WeakPathMortal("survivor", log: log)
        chain.add(survivor)
        do {
            let doomed = WeakPathMortal("doomed", log: log)
            chain.add(doomed)
            chain.send(Scroll.didScroll, 1)
        }
        #expect(chain.count == 1)
        #expect(chain.targets.count == 1)
        chain.send(Scroll.didScroll, 2)
        #expect(
            log.events == [
                "survivor.didScroll(1)", "doomed.didScroll(1)", "doomed.deinit", "survivor.didScroll(2)",
            ])
        #expect(chain.registrationCount == 1)
        withExtendedLifetime(survivor) {}
    }
}

@Suite("Zeroing hold")
struct ZeroingHoldTests {
    @Test func aDeadTargetIsNeverReportedAndItsMemoryIsGivenBackByTheNextSweep() {
        let log = Log()
        let chain = DelegateChain()
        let survivor = Zeroed("survivor", log: log)
        chain.add(survivor, responses: Responses<Zeroed>().on(Scroll.willBeginDragging) { _ in })
        weak var weakDoomed: Zeroed?
        do {
            let doomed = Zeroed("doomed", log: log)
            weakDoomed = doomed
            chain.add(doomed)
        }
        // No send has run since the death: the chain still holds the dead target's memory, but
        // reports nothing of it.
        #expect(weakDoomed == nil)
        #expect(chain.deadAllocationsHeld == 1)
        #expect(chain.count == 1)
        #expect(chain.targets.map(ObjectIdentifier.init) == [ObjectIdentifier(survivor)])
        #expect(!chain.isEmpty)
        #expect(!chain.responds(to: Scroll.viewForZooming)) // only the dead target answered it
        #expect(chain.send(Scroll.viewForZooming) == nil)
        // That send met the dead target and reclaimed it.
        #expect(chain.deadAllocationsHeld == 0)
        #expect(chain.registrationCount == 1)
        #expect(chain.tableStats.liveSlots == 1)
        #expect(chain.invariantViolation == 0)
        #expect(log.events == ["doomed.deinit"])
    }

    /// A dead target's memory is given back even by a chain that never sends: each add sweeps
    /// once the list has doubled.
    @Test func addsAloneReclaimDeadTargets() {
        let log = Log()
        let chain = DelegateChain()
        let survivor = Zeroed("survivor", log: log)
        chain.add(survivor)
        for index in 0..<1_000 {
            chain.add(Zeroed("m\(index)", log: log))
            #expect(chain.deadAllocationsHeld <= 16)
        }
        #expect(chain.registrationListCount <= 17)
        #expect(chain.count == 1)
        #expect(chain.invariantViolation == 0)
    }

    @Test func strongRetentionStillKeepsAPlainTargetAlive() {
        let log = Log()
        let chain = DelegateChain()
        let zeroed = handOver(Zeroed("t", log: log)) { zeroed in
            chain.add(zeroed, retention: .strong)
            #expect(chain.holdForTesting(of: zeroed) == .strong)
        }
        #expect(zeroed.object != nil)
        chain.add(zeroed.object!) // back to the zeroing hold: nothing else keeps it alive
        #expect(zeroed.object == nil)
        #expect(chain.count == 0)
        #expect(chain.deadAllocationsHeld == 1)
    }

    /// Targets die on one thread (their last release) while another thread sends to them.
    @Test func targetsDyingOnAnotherThreadWhileSendsRunAreNeverCalledDuringOrAfterDeinit() {
        let shared = StressShared()
        let handoff = HandoffMutex<[StressTarget]>([])
        let producerDone = Atomic<Bool>(false)
        let group = DispatchGroup()
        let total = 2_000

        DispatchQueue.global().async(group: group) {
            // The producer: makes targets, hands them to the sender, then lets them go.
            var owned: [StressTarget] = []
            var generator = SeededGenerator(seed: 42)
            for index in 0..<total {
                let target = StressTarget(shared: shared)
                owned.append(target)
                handoff.withLock { $0.append(target) }
                if index % 7 == 0 || owned.count > 40 {
                    let victim = Int.random(in: 0..<owned.count, using: &generator)
                    owned.swapAt(victim, owned.count - 1)
                    owned.removeLast() // likely the last strong reference: dies here, mid-send
                }
            }
            owned.removeAll()
            producerDone.store(true, ordering: .releasing)
        }
        DispatchQueue.global().async(group: group) {
            // The sender owns the chain.
            let chain = DelegateChain()
            var sends = 0
            while true {
                let done = producerDone.load(ordering: .acquiring)
                let arrivals = handoff.withLock { list in
                    defer { list.removeAll() }
                    return list
                }
                for target in arrivals { chain.add(target) }
                chain.send(StressTarget.tick, 1)
                sends += 1
                if done && arrivals.isEmpty { break }
            }
            for _ in 0..<10 { chain.send(StressTarget.tick, 1) }
            shared.finalRegistrations.store(chain.registrationCount, ordering: .releasing)
            shared.sends.store(sends, ordering: .releasing)
        }
        group.wait()
        #expect(shared.violations.load(ordering: .acquiring) == 0)
        #expect(shared.deaths.load(ordering: .acquiring) == total)
        #expect(shared.calls.load(ordering: .acquiring) > 0)
        #expect(shared.finalRegistrations.load(ordering: .acquiring) == 0)
        #expect(shared.sends.load(ordering: .acquiring) > 0)
    }
}

final class StressShared: Sendable {
    let violations = Atomic<Int>(0)
    let deaths = Atomic<Int>(0)
    let calls = Atomic<Int>(0)
    let sends = Atomic<Int>(0)
    let finalRegistrations = Atomic<Int>(-1)
}

final class StressTarget: DelegateResponder, Sendable {
    static let tick = Message<Int, Void>("stress.tick:")

    let shared: StressShared
    let deinitStarted = Atomic<Bool>(false)
    let inHandler = Atomic<Int>(0)

    init(shared: StressShared) { self.shared = shared }

    deinit {
        deinitStarted.store(true, ordering: .sequentiallyConsistent)
        if inHandler.load(ordering: .sequentiallyConsistent) != 0 {
            shared.violations.add(1, ordering: .relaxed)
        }
        shared.deaths.add(1, ordering: .relaxed)
    }

    static let responses = SendableResponses<StressTarget>().on(tick) { me, value in
        me.inHandler.add(1, ordering: .sequentiallyConsistent)
        if me.deinitStarted.load(ordering: .sequentiallyConsistent) {
            me.shared.violations.add(1, ordering: .relaxed)
        }
        me.shared.calls.add(value, ordering: .relaxed)
        me.inHandler.subtract(1, ordering: .sequentiallyConsistent)
    }
}

/// A target whose handler runs `duringCall` (which lets another thread release it), recording
/// a violation if its deinit starts while a call is in progress or a call starts after it.
final class HandoffTarget: DelegateResponder, Sendable {
    let shared: StressShared
    let duringCall: @Sendable () -> Void
    let deinitStarted = Atomic<Bool>(false)
    let inHandler = Atomic<Int>(0)

    init(shared: StressShared, duringCall: @escaping @Sendable () -> Void) {
        self.shared = shared
        self.duringCall = duringCall
    }

    deinit {
        deinitStarted.store(true, ordering: .sequentiallyConsistent)
        if inHandler.load(ordering: .sequentiallyConsistent) != 0 {
            shared.violations.add(1, ordering: .relaxed)
        }
        shared.deaths.add(1, ordering: .relaxed)
    }

    static let responses = SendableResponses<HandoffTarget>().on(StressTarget.tick) { me, value in
        me.inHandler.add(1, ordering: .sequentiallyConsistent)
        me.duringCall()
        if me.deinitStarted.load(ordering: .sequentiallyConsistent) {
            me.shared.violations.add(1, ordering: .relaxed)
        }
        me.shared.calls.add(value, ordering: .relaxed)
        me.inHandler.subtract(1, ordering: .sequentiallyConsistent)
    }
}
