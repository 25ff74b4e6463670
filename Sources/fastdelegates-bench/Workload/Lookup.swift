/// A multiplexer that the lookup scenario fills with other messages.
protocol LookupFillable: Membership where Target == BenchTarget {
    associatedtype FillerMessage
    /// The void message of an `Int` named `name`.
    static func fillerMessage(_ name: String) -> FillerMessage
    /// Adds `filler`, answering each of `messages` by adding the value into its sum.
    func addFiller(_ filler: BenchTarget, answering messages: ArraySlice<FillerMessage>)
}

extension AnyRunner {
    /// The lookup scenario: one tick target on `multiplexer` (an empty one), where
    /// `messages - 1` other messages are answered by filler targets (100 messages each), so that
    /// it holds `messages` distinct messages. Measured by the tick runner, which keeps the
    /// fillers alive with the target (they receive no tick: the checksum is the target's sum).
    static func lookup<Multiplexer: LookupFillable>(_ multiplexer: Multiplexer, messages: Int) -> AnyRunner {
        let target = BenchTarget(id: 1)
        let fillerMessages = (0..<max(0, messages - 1)).map {
            Multiplexer.fillerMessage("benchFillerMessage\($0):")
        }
        multiplexer.add(target)
        let fillers = stride(from: 0, to: fillerMessages.count, by: 100).map { start in
            let filler = BenchTarget(id: 0)
            multiplexer.addFiller(filler, answering: fillerMessages[start..<min(start + 100, fillerMessages.count)])
            return filler
        }
        return tick(multiplexer, targets: [target] + fillers)
    }
}
