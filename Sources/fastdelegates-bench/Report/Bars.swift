/// The project's performance bars (issue 4), checked against this run's measurements.
/// Every figure is computed from the rows; a bar whose inputs were not measured is skipped.
enum Bars {
    static func render(_ rows: [ResultRow]) -> String {
        func median(_ variant: String, _ scenario: String, _ n: Int) -> Double? {
            rows.first { $0.variant == variant && $0.scenario == scenario && $0.targets == n }?.median_ns
        }
        var lines = ["performance bars (medians from this run; ratio = first / second):"]
        /// Appends the bar `label`: numerator / denominator against `limit`, `relation` being
        /// "<=" or ">=".
        func bar(_ label: String, _ numerator: Double?, _ denominator: Double?, _ relation: String, _ limit: Double) {
            guard let numerator, let denominator, denominator > 0 else { return }
            let ratio = numerator / denominator
            let met = relation == "<=" ? ratio <= limit : ratio >= limit
            lines.append(
                "  \(met ? "MET   " : "MISSED") \(label): \(fixed(ratio, 2))x (bar \(relation) \(fixed(limit, 2))x)")
        }
        /// The bar of the tick scenario at N = `n`: `variant` / `other`.
        func tick(_ n: Int, _ variant: String, over other: String, _ relation: String, _ limit: Double) {
            bar(
                "tick N=\(n) \(variant) / \(other)", median(variant, "tick", n), median(other, "tick", n), relation,
                limit)
        }
        /// Appends an unchecked ratio of the tick scenario at N = `n`: `variant` / `other`, with
        /// `note` saying what it shows.
        func info(_ n: Int, _ variant: String, over other: String, _ note: String) {
            guard let numerator = median(variant, "tick", n), let denominator = median(other, "tick", n),
                denominator > 0
            else { return }
            lines.append("  info   tick N=\(n) \(variant) / \(other): \(fixed(numerator / denominator, 2))x (\(note))")
        }
        let ns = Array(Set(rows.map(\.targets))).sorted()
        // Issue 13: the default weak hold of a plain class (the zeroing fast path) against
        // hand-written `weak var` forwarding, and the concurrent chain's.
        for n in ns where n >= 4 {
            tick(n, "handwritten-weak-var", over: "fastdelegates-weak", ">=", 2.5)
            tick(n, "concurrent-weak", over: "handwritten-weak-var", "<=", 0.6)
        }
        // The fallback for Objective-C-rooted objects (a Swift weak reference) stays near the
        // hand-written code it replaces.
        for n in ns where n >= 4 {
            tick(n, "fastdelegates-weak-reference", over: "handwritten-weak-var", "<=", 1.2)
        }
        // Issue 22: a generated proxy costs what sending through its chain costs.
        for n in ns {
            tick(n, "fastdelegates-proxy", over: "fastdelegates-weak", "<=", 1.05)
        }
        // In the host's calling situation, against the glue it replaces.
        for n in ns {
            info(
                n, "fastdelegates-proxy", over: "handwritten-forwarder",
                "the same protocol call, into hand-written forwarding")
            info(
                n, "concurrent-proxy", over: "handwritten-concurrent-forwarder",
                "the same protocol call, into hand-written forwarding")
        }
        for n in ns {
            tick(n, "fastdelegates-strong", over: "strong-array", "<=", 1.5)
        }
        for n in ns where n <= 4 {
            for other in ["pure-swift-proxy", "naive-weak-multicast"] {
                tick(n, other, over: "fastdelegates-weak", ">=", 2)
            }
        }
        for n in ns {
            tick(n, "notificationcenter", over: "fastdelegates-weak", ">=", 20)
            tick(n, "opencombine", over: "fastdelegates-weak", ">=", 10)
        }
        // The peers hold their observers weakly, so hand-written `weak var` forwarding is the
        // fastest any weakly holding multiplexer can be: its ratio is the ceiling of the two
        // bars above when a chain holds a weak reference; the default zeroing hold has the same
        // semantics without weak loads.
        for n in ns {
            for peer in ["notificationcenter", "opencombine"] {
                info(n, peer, over: "handwritten-weak-var", "the ceiling of any weakly holding chain")
            }
        }
        // The concurrent chain (issue 14): sharing a chain between two sending threads costs a
        // thread no more than a chain of its own, and one sending thread pays little for the
        // thread safety.
        for n in ns {
            tick(n, "concurrent-2threads-shared", over: "concurrent-2threads-separate", "<=", 1.3)
            tick(n, "concurrent-weak", over: "fastdelegates-weak", "<=", 1.2)
        }
        // Issue 23: the default weak path and the concurrent chain against the floors of a
        // memory-safe zeroing hold (the runtime's own calls; Swift's `unowned let`).
        for n in ns {
            for variant in ["fastdelegates-weak", "concurrent-weak"] {
                for floor in ["zeroing-floor", "unowned-safe"] {
                    info(n, variant, over: floor, "the floor of a memory-safe zeroing hold")
                }
            }
        }
        // Issue 45: XMLParser fanned out to 3 listeners, whole parses (the parser's work in both).
        if let proxy = median("foundation-proxy", "xml", 3),
            let forwarder = median("handwritten-xml-forwarder", "xml", 3),
            forwarder > 0
        {
            lines.append(
                "  info   xml N=3 foundation-proxy / handwritten-xml-forwarder: \(fixed(proxy / forwarder, 2))x "
                    + "(XMLParser's ready-made proxy against a hand-written weak-var forwarder, per parse)")
        }
        bar(
            "lookup fastdelegates-weak 10,000 messages / 1 message",
            median("fastdelegates-weak", "lookup-10000", 1), median("fastdelegates-weak", "lookup-1", 1), "<=", 1.2)
        let allocating = rows.filter {
            isFastDelegates($0.variant) && $0.scenario != "churn" && $0.scenario != "lifecycle"
                && ($0.allocs_per_dispatch ?? 0) > 0
        }
        if rows.contains(where: { isFastDelegates($0.variant) && $0.allocs_per_dispatch != nil }) {
            lines.append(
                "  \(allocating.isEmpty ? "MET   " : "MISSED") 0 allocations per dispatch for FastDelegates "
                    + "(tick, first, responds, lookup): \(allocating.isEmpty ? "none allocate" : allocating.map { "\($0.scenario)/\($0.variant) N=\($0.targets)" }.joined(separator: ", "))"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The variants that run this package's chains (both chains, every mode).
    private static func isFastDelegates(_ variant: String) -> Bool {
        variant.hasPrefix("fastdelegates") || variant.hasPrefix("concurrent")
    }
}
