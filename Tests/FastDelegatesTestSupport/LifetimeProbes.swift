@_spi(Testing) import FastDelegates

/// A weakly held target whose deinit can run code (e.g. send to the chain it was in).
package final class Mortal: @unchecked Sendable {
    // Sound: `name` and `log` are immutable and `Sendable`; the hooks are written by the test's
    // own thread while no send to the target runs, and read on the thread that sends or releases
    // it, which a test that uses another thread starts after the write.
    package let name: String
    package let log: Log
    package var onScroll: ((Mortal, Int) -> Void)?
    package var onDeinit: (() -> Void)?

    package init(_ name: String, log: Log) {
        self.name = name
        self.log = log
    }

    deinit {
        log.record("\(name).deinit")
        onDeinit?()
    }

    package static let responses = SendableResponses<Mortal>().on(Scroll.didScroll) { me, offset in
        me.log.record("\(me.name).didScroll(\(offset))")
        me.onScroll?(me, offset)
    }
}

/// A minimal target for the very large tests: counts its calls and its deaths.
package final class Counter {
    package var hits = 0
    package let deaths: DeathCount?

    package init(deaths: DeathCount? = nil) { self.deaths = deaths }

    deinit { deaths?.value += 1 }

    /// One shared set of responses, so a million registrations make no million closures.
    package static let responses = SendableResponses<Counter>().on(Scroll.didScroll) { me, _ in me.hits += 1 }
}

/// A counterpart of ``Counter`` that chains hold with a Swift `weak` reference, as they hold
/// Objective-C-rooted objects on Apple platforms (``Counter`` is on the zeroing hold).
package final class WeakPathCounter: DelegateResponder {
    package var hits = 0
    package let deaths: DeathCount

    package init(deaths: DeathCount) {
        _ = Self.onWeakPath
        self.deaths = deaths
    }

    private static let onWeakPath: Void = useWeakReferenceHold(for: WeakPathCounter.self)

    deinit { deaths.value += 1 }

    package static let responses = SendableResponses<WeakPathCounter>().on(Scroll.didScroll) { me, _ in
        me.hits += 1
    }
}

/// How many targets of a test died.
package final class DeathCount {
    package var value = 0
    package init() {}
}

/// A weak reference, to check afterwards that an object is gone.
package struct WeakBox {
    package weak var object: AnyObject?
    package init(object: AnyObject?) { self.object = object }
}

/// A weak reference to an object made and handed over in a scope of its own: whether it is still
/// alive afterwards says whether what it was handed to keeps it.
package struct Handed<Object: AnyObject> {
    package weak var object: Object?
}

/// Makes an object, hands it to `handOver` (which registers it somewhere) and lets go of it.
package func handOver<Object: AnyObject>(_ make: @autoclosure () -> Object, to handOver: (Object) -> Void)
    -> Handed<Object>
{
    let object = make()
    handOver(object)
    return Handed(object: object)
}
