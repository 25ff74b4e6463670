/// A multiplexer that the lookup scenario can fill with other messages.
protocol LookupFillable: Membership {
    /// Adds `filler`, answering each message of `names` (a void message of an `Int`) by adding
    /// the value into its sum.
    func addFiller(_ filler: BenchTarget, answering names: ArraySlice<String>)
}

/// The lookup scenario: a multiplexer of one tick target, where `messages - 1` other messages
/// are answered by filler targets (100 messages each), so that it holds `messages` distinct
/// messages. Measured by the tick runner.
struct Lookup<Multiplexer: LookupFillable>: Ticking {
    let multiplexer: Populated<Multiplexer>
    let fillers: [BenchTarget]

    /// Adds the tick target and the fillers to `multiplexer`, an empty one.
    init(_ multiplexer: Multiplexer, messages: Int) {
        self.multiplexer = Populated(1, multiplexer)
        let names = (0..<max(0, messages - 1)).map { "benchFillerMessage\($0):" }
        fillers = stride(from: 0, to: names.count, by: 100).map { start in
            let filler = BenchTarget(id: 0)
            multiplexer.addFiller(filler, answering: names[start..<min(start + 100, names.count)])
            return filler
        }
    }

    @inline(__always) func tick(_ value: Int) { multiplexer.tick(value) }
    var tickSum: Int { multiplexer.tickSum }
}
