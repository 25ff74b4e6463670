/// Hand-written `weak var` forwarding: a class with one `weak var` field of the delegate
/// protocol per target, calling each in turn. The floor for zeroing-weak semantics in Swift.
///
/// The forwarders for 1, 4, 16 and 64 fields are in `HandWrittenWeak+Generated.swift`, written
/// out field by field exactly as a person would, by `scripts/generate-handwritten-weak.py`
/// (`make generate`) to avoid typos.
/// A target count between those sizes uses the next larger forwarder with its first N fields
/// set; counts above 64 are skipped.
enum HandWrittenWeakVariant {
    static let variant = Variant(name: "handwritten-weak-var") { scenario, n in
        switch n {
        case ...1: runner(WeakForwarder1.self, scenario, n)
        case ...4: runner(WeakForwarder4.self, scenario, n)
        case ...16: runner(WeakForwarder16.self, scenario, n)
        case ...64: runner(WeakForwarder64.self, scenario, n)
        default: nil
        }
    }

    static func runner<Forwarder: WeakForwarder>(_: Forwarder.Type, _ scenario: Scenario, _ n: Int) -> AnyRunner? {
        let targets = BenchTarget.make(n)
        let multiplexer = Multiplexer(forwarder: Forwarder(targets))
        return switch scenario {
        case .tick: .tick(multiplexer, targets: targets)
        case .first: .first(multiplexer, targets: targets)
        case .responds: .responds(multiplexer, targets: targets)
        default: nil
        }
    }

    /// A forwarder, as the runners call it.
    struct Multiplexer<Forwarder: WeakForwarder>: Ticking, FirstAnswering, Responding {
        let forwarder: Forwarder
        @inline(__always) func tick(_ value: Int) { forwarder.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { forwarder.firstResponder(value) }
        @inline(__always) var respondsToTick: Bool { forwarder.responds }
    }
}

/// What every generated forwarder (`WeakForwarder1` … `WeakForwarder64`) declares.
protocol WeakForwarder: AnyObject {
    /// Sets the first `targets.count` fields.
    init(_ targets: [any ScrollDelegate])
    /// Calls `scrollTick` on every live field.
    func scrollTick(_ value: Int)
    /// The first live field's answer.
    func firstResponder(_ value: Int) -> Int?
    /// Whether some field is live.
    var responds: Bool { get }
}
