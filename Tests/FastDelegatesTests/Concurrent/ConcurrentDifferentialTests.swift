import Testing

@testable import FastDelegates

/// Seeded random single-threaded programs run on a DelegateChain and a ConcurrentDelegateChain
/// side by side, on twin targets: every observable result (delivery logs, answers, responds,
/// targets, count, contains, retention, remove's result) must be identical.
@Suite("Concurrent differential: ConcurrentDelegateChain against DelegateChain")
struct ConcurrentDifferentialTests {
    static let operationsPerSeed = 20_000

    @Test(arguments: Soak.seeds([11, 12, 13]))
    func randomProgramsBehaveTheSame(seed: UInt64) {
        var run = MirrorRun(seed: seed, mode: seed % 2 == 0 ? .breaking : .nonBreaking)
        for _ in 0..<Self.operationsPerSeed {
            run.step()
            if !run.mismatches.isEmpty { break }
        }
        if Soak.reporting { print("soak: concurrent differential seed \(seed): \(Self.operationsPerSeed) operations") }
        #expect(run.mismatches == [], "seed \(seed)")
        #expect(run.sends > Self.operationsPerSeed / 4)
        #expect(run.hookRemovals > 0 && run.hookAdditions > 0)
    }
}

/// What one side's handlers write, and a hook the first handler of a send runs.
final class MirrorLog {
    var events: [String] = []
    var hook: (() -> Void)?
}

final class MirrorTarget {
    let id: Int
    let log: MirrorLog
    init(id: Int, log: MirrorLog) {
        self.id = id
        self.log = log
    }

    func receive(_ message: Int, version: Int, value: Int) {
        log.events.append("t\(id).m\(message).v\(version)(\(value))")
        if let hook = log.hook {
            log.hook = nil
            hook()
        }
    }
}

enum MirrorMessages {
    static let voids = (0..<3).map { Message<Int, Void>("mirror.void\($0):") }
    static let answer = Message<Int, Int>("mirror.answer:")
}

struct MirrorRun {
    var rng: SeededGenerator
    let plain: DelegateChain
    let concurrent: ConcurrentDelegateChain
    let logA = MirrorLog(), logB = MirrorLog()
    /// Twin targets the test keeps alive, by id: (plain's, concurrent's).
    var held: [Int: (MirrorTarget, MirrorTarget)] = [:]
    /// Every twin pair that may be alive, in creation order (dead ones pruned on the way).
    var everMade: [(id: Int, a: WeakBox, b: WeakBox)] = []
    /// The ids of `held`, in creation order (a dictionary's order is not deterministic).
    var heldIDs: [Int] = []
    var tokens: [(DelegateToken, ConcurrentDelegateToken)] = []
    var nextID = 0, nextVersion = 0
    final class Report {
        var mismatches: [String] = []
    }
    let report = Report()
    var mismatches: [String] { report.mismatches }
    var sends = 0, hookRemovals = 0, hookAdditions = 0, stepIndex = 0

    final class WeakBox {
        weak var target: MirrorTarget?
        init(_ target: MirrorTarget) { self.target = target }
    }

    init(seed: UInt64, mode: DelegateChain.Mode) {
        rng = SeededGenerator(seed: seed)
        plain = DelegateChain(mode: mode)
        concurrent = ConcurrentDelegateChain(mode: mode)
    }

    static func responses(_ handlers: [Int: Int]) -> SendableResponses<MirrorTarget> {
        var responses = SendableResponses<MirrorTarget>()
        for (message, version) in handlers {
            if message < 3 {
                responses = responses.on(MirrorMessages.voids[message]) { me, value in
                    me.receive(message, version: version, value: value)
                }
            } else {
                responses = responses.on(MirrorMessages.answer) { me, value in
                    me.receive(3, version: version, value: value)
                    return version * 1_000 + value
                }
            }
        }
        return responses
    }

    mutating func randomHandlers() -> [Int: Int] {
        var handlers: [Int: Int] = [:]
        for message in 0..<4 where Bool.random(using: &rng) {
            nextVersion += 1
            handlers[message] = nextVersion
        }
        return handlers
    }

    mutating func makeTwins() -> (MirrorTarget, MirrorTarget) {
        nextID += 1
        let twins = (MirrorTarget(id: nextID, log: logA), MirrorTarget(id: nextID, log: logB))
        held[nextID] = twins
        heldIDs.append(nextID)
        everMade.append((nextID, WeakBox(twins.0), WeakBox(twins.1)))
        return twins
    }

    /// The twins of a random target ever made that is still alive.
    mutating func randomLiveTwins() -> (MirrorTarget, MirrorTarget)? {
        everMade.removeAll { $0.a.target == nil }
        guard let pick = everMade.randomElement(using: &rng),
            let a = pick.a.target, let b = pick.b.target
        else { return nil }
        return (a, b)
    }

    func expect(_ same: Bool, _ what: @autoclosure () -> String) {
        if !same { report.mismatches.append("step \(stepIndex): \(what())") }
    }

    mutating func compareLogs(_ what: String) {
        expect(logA.events == logB.events, "\(what): plain \(logA.events) concurrent \(logB.events)")
        logA.events.removeAll()
        logB.events.removeAll()
    }

    mutating func step() {
        stepIndex += 1
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<14: add(insert: false)
        case 14..<18: add(insert: true)
        case 18..<22: addExisting()
        case 22..<28: remove()
        case 28..<31: cancel()
        case 31..<37: drop()
        case 37..<38 where Int.random(in: 0..<20, using: &rng) == 0:
            plain.removeAll()
            concurrent.removeAll()
        case 38..<46: sendWithHook()
        case 46..<54: inspect()
        case 54..<64: sendAnswer()
        default: sendVoid()
        }
        if plain.count > 48 { remove() }
        if held.count > 64 { drop() }
    }

    mutating func add(insert: Bool) {
        let (a, b) = makeTwins()
        let handlers = randomHandlers()
        let retention: Retention = Int.random(in: 0..<4, using: &rng) == 0 ? .strong : .weak
        if insert {
            let index = Int.random(in: 0...plain.count, using: &rng)
            tokens.append(
                (
                    plain.insert(a, at: index, retention: retention, responses: Self.responses(handlers)),
                    concurrent.insert(b, at: index, retention: retention, responses: Self.responses(handlers))
                ))
        } else {
            tokens.append(
                (
                    plain.add(a, retention: retention, responses: Self.responses(handlers)),
                    concurrent.add(b, retention: retention, responses: Self.responses(handlers))
                ))
        }
    }

    mutating func addExisting() {
        guard let (a, b) = randomLiveTwins() else { return }
        let handlers = randomHandlers()
        let retention: Retention = Bool.random(using: &rng) ? .strong : .weak
        tokens.append(
            (
                plain.add(a, retention: retention) { $0.merging(Self.responses(handlers)) },
                concurrent.add(b, retention: retention) { $0.merging(Self.responses(handlers)) }
            ))
    }

    mutating func remove() {
        guard let (a, b) = randomLiveTwins() else { return }
        let removedA = plain.remove(a), removedB = concurrent.remove(b)
        expect(removedA == removedB, "remove t\(a.id): plain \(removedA) concurrent \(removedB)")
    }

    mutating func cancel() {
        guard !tokens.isEmpty else { return }
        let (a, b) = tokens.remove(at: Int.random(in: 0..<tokens.count, using: &rng))
        a.cancel()
        b.cancel()
    }

    mutating func drop() {
        guard !heldIDs.isEmpty else { return }
        held[heldIDs.remove(at: Int.random(in: 0..<heldIDs.count, using: &rng))] = nil
    }

    mutating func sendVoid() {
        sends += 1
        let message = Int.random(in: 0..<3, using: &rng)
        let value = Int.random(in: 0..<1_000, using: &rng)
        plain.send(MirrorMessages.voids[message], value)
        concurrent.send(MirrorMessages.voids[message], value)
        compareLogs("send m\(message)")
    }

    mutating func sendAnswer() {
        sends += 1
        let value = Int.random(in: 0..<1_000, using: &rng)
        let answerA = plain.send(MirrorMessages.answer, value)
        let answerB = concurrent.send(MirrorMessages.answer, value)
        expect(
            answerA == answerB, "answer plain \(String(describing: answerA)) concurrent \(String(describing: answerB))")
        let defaultA = plain.send(MirrorMessages.answer, value, default: -1)
        let defaultB = concurrent.send(MirrorMessages.answer, value, default: -1)
        expect(defaultA == defaultB, "answer with default")
        compareLogs("answer")
    }

    /// A send whose first handler removes a random live target or adds a new one, on each side.
    mutating func sendWithHook() {
        sends += 1
        let message = Int.random(in: 0..<3, using: &rng)
        let value = Int.random(in: 0..<1_000, using: &rng)
        if Bool.random(using: &rng), let (a, b) = randomLiveTwins() {
            hookRemovals += 1
            logA.hook = { [plain] in _ = plain.remove(a) }
            logB.hook = { [concurrent] in _ = concurrent.remove(b) }
        } else {
            hookAdditions += 1
            let (a, b) = makeTwins()
            let handlers = randomHandlers()
            let responsesA = Self.responses(handlers), responsesB = Self.responses(handlers)
            logA.hook = { [plain] in plain.add(a, responses: responsesA) }
            logB.hook = { [concurrent] in concurrent.add(b, responses: responsesB) }
        }
        plain.send(MirrorMessages.voids[message], value)
        concurrent.send(MirrorMessages.voids[message], value)
        logA.hook = nil
        logB.hook = nil
        compareLogs("hooked send m\(message)")
    }

    mutating func inspect() {
        let message = Int.random(in: 0..<3, using: &rng)
        let respondsA = plain.responds(to: MirrorMessages.voids[message])
        let respondsB = concurrent.responds(to: MirrorMessages.voids[message])
        expect(respondsA == respondsB, "responds m\(message)")
        let idsA = plain.targets.map { ($0 as! MirrorTarget).id }
        let idsB = concurrent.targets.map { ($0 as! MirrorTarget).id }
        expect(idsA == idsB, "targets plain \(idsA) concurrent \(idsB)")
        expect(plain.count == concurrent.count, "count")
        if let (a, b) = randomLiveTwins() {
            expect(plain.contains(a) == concurrent.contains(b), "contains t\(a.id)")
            expect(plain.retention(of: a) == concurrent.retention(of: b), "retention t\(a.id)")
        }
    }
}
