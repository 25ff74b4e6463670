/// A multiplexer that asks its first responder (the first scenario). Its methods are
/// `@inline(__always)` (see ``Runner``).
protocol FirstAnswering {
    /// The first responder's answer to `value` (`value &+ 1`), or nil if none answers.
    func first(_ value: Int) -> Int?
}

/// A multiplexer that says whether some target answers the tick (the responds scenario). Its
/// methods are `@inline(__always)` (see ``Runner``).
protocol Responding {
    /// Whether some live target answers the tick.
    var respondsToTick: Bool { get }
}

/// A question asked once per dispatch, whose answers the checksum adds up.
protocol Query {
    func answer(_ value: Int) -> Int
}

/// The first scenario's question: the first responder's answer, 0 if none answers.
struct FirstQuery<Multiplexer: FirstAnswering>: Query {
    let multiplexer: Multiplexer
    @inline(__always) func answer(_ value: Int) -> Int { multiplexer.first(value) ?? 0 }
}

/// The responds scenario's question: 1 when some target answers the tick.
struct RespondsQuery<Multiplexer: Responding>: Query {
    let multiplexer: Multiplexer
    @inline(__always) func answer(_ value: Int) -> Int { multiplexer.respondsToTick ? 1 : 0 }
}

/// `count` questions in a row (the first and responds scenarios: one shape, two questions).
final class QueryRunner<Question: Query>: Runner {
    let question: Question
    /// The answers so far, added up.
    var answers = 0
    init(_ question: Question) { self.question = question }
    @inline(never)
    func run(_ count: Int, base: Int) {
        var sum = 0
        for i in 0..<count { sum &+= question.answer(base &+ i) }
        answers &+= sum
    }
    var checksum: Int { answers }
}

extension AnyRunner {
    /// The first scenario on `multiplexer`.
    static func first(_ multiplexer: some FirstAnswering) -> AnyRunner {
        AnyRunner(QueryRunner(FirstQuery(multiplexer: multiplexer)))
    }

    /// The responds scenario on `multiplexer`.
    static func responds(_ multiplexer: some Responding) -> AnyRunner {
        AnyRunner(QueryRunner(RespondsQuery(multiplexer: multiplexer)))
    }
}
