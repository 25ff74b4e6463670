import CDispatchTable

// The benchmark's only file with unsafe pointers: the zeroing floor is, by definition, the
// runtime calls a memory-safe zeroing hold cannot do without, on raw object pointers.

/// The floors of a memory-safe zeroing hold (one that never calls a target whose deinit has
/// started, and never keeps a target alive), against which the chains' default weak path is
/// measured (issue 23).
///
/// - `zeroing-floor`: what the Swift runtime itself needs. Each target's memory is kept by one
///   unowned reference (`swift_unownedRetain`, once, when it is added); per call,
///   `swift_tryRetain`, a direct call of the target's method, then `swift_release`. No message
///   lookup, no mutation safety, no order: the least any zeroing chain can do.
/// - `unowned-safe`: the same in plain Swift, an array of `unowned let` references (each read
///   checks the target is alive and traps if it is not, so it is a floor, not a usable hold).
enum ZeroingFloorVariants {
    static let zeroingFloor = Variant(name: "zeroing-floor") { scenario, n in
        let targets = BenchTarget.make(n)
        return scenario == .tick ? .tick(Zeroing(targets), targets: targets) : nil
    }

    static let unownedSafe = Variant(name: "unowned-safe") { scenario, n in
        let targets = BenchTarget.make(n)
        return scenario == .tick ? .tick(Unowned(targets), targets: targets) : nil
    }

    /// The targets, each kept by one unowned reference, called between `swift_tryRetain` and
    /// `swift_release`.
    struct Zeroing: Ticking {
        /// The targets (kept alive by the runner, as by its caller in a real program), each
        /// with one unowned reference.
        let objects: [UnsafeMutableRawPointer]
        /// Gives the unowned references back when the runner goes.
        let references: UnownedReferences

        init(_ targets: [BenchTarget]) {
            references = UnownedReferences(targets)
            objects = references.objects
        }

        @inline(__always) func tick(_ value: Int) {
            for object in objects where swift_tryRetain(object) != nil {
                Unmanaged<BenchTarget>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.scrollTick(value) }
                swift_release(object)
            }
        }
    }

    /// One unowned reference to each target, taken here and given back in deinit.
    final class UnownedReferences {
        let objects: [UnsafeMutableRawPointer]

        init(_ targets: [BenchTarget]) {
            objects = targets.map { target in
                let object = Unmanaged.passUnretained(target).toOpaque()
                _ = swift_unownedRetain(object)
                return object
            }
        }

        deinit {
            for object in objects { swift_unownedRelease(object) }
        }
    }

    /// One `unowned let` reference (Swift's safe unowned: checked on every read).
    struct UnownedTarget {
        unowned let target: BenchTarget
    }

    /// The targets, each read through an `unowned let` reference.
    struct Unowned: Ticking {
        let references: [UnownedTarget]

        init(_ targets: [BenchTarget]) {
            references = targets.map { UnownedTarget(target: $0) }
        }

        @inline(__always) func tick(_ value: Int) {
            for reference in references { reference.target.scrollTick(value) }
        }
    }
}
