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
        let targets = BenchTarget.make(n)
        switch (scenario, n) {
        case (.tick, ...1): return TickRunner1(targets)
        case (.tick, ...4): return TickRunner4(targets)
        case (.tick, ...16): return TickRunner16(targets)
        case (.tick, ...64): return TickRunner64(targets)
        case (.first, ...1): return FirstRunner1(targets)
        case (.first, ...4): return FirstRunner4(targets)
        case (.first, ...16): return FirstRunner16(targets)
        case (.first, ...64): return FirstRunner64(targets)
        case (.responds, ...1): return RespondsRunner1(targets)
        case (.responds, ...4): return RespondsRunner4(targets)
        case (.responds, ...16): return RespondsRunner16(targets)
        case (.responds, ...64): return RespondsRunner64(targets)
        default: return nil
        }
    }
}
