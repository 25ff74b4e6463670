/// What a sample measures. Every scenario's work is checked against a computed checksum.
enum Scenario: Hashable, Sendable, CustomStringConvertible {
    /// `send(tick, v)`: the void message to every target (or the first, in breaking mode).
    case tick
    /// `send(first, v)`: the first responder's answer.
    case first
    /// `responds(to: tick)`.
    case responds
    /// One tick to 1 target on a chain where `messages` distinct messages are registered.
    case lookup(messages: Int)
    /// Per step: one target removed or dropped (dies), one added, then one tick to all.
    case churn
    /// One real `XMLParser` parse of a small document into every target (the Foundation proxy
    /// against a hand-written forwarder: `XMLFanOutVariant`).
    case xml
    /// One create, add the targets, send one tick, drop cycle (``LifecycleVariants``).
    case lifecycle

    var description: String {
        switch self {
        case .tick: "tick"
        case .first: "first"
        case .responds: "responds"
        case .lookup(let messages): "lookup-\(messages)"
        case .churn: "churn"
        case .xml: "xml"
        case .lifecycle: "lifecycle"
        }
    }

    /// The checksum a correct variant must produce after `dispatches` dispatches with values
    /// summing to `valueSum`, on `targets` targets.
    func expectedChecksum(targets: Int, breaking: Bool, dispatches: Int, valueSum: Int) -> Int {
        switch self {
        case .tick, .churn, .lifecycle: (breaking ? 1 : targets) &* valueSum
        case .first: dispatches &+ valueSum // one answer of v &+ 1 per query
        case .responds: dispatches // counts true answers
        case .lookup: valueSum
        case .xml: targets &* dispatches &* XMLFanOutVariant.callsPerParse
        }
    }
}
