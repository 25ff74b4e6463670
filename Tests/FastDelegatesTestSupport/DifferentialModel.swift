import FastDelegates

/// Where handlers write what they received, and the hook the first handler of a send runs.
final class Sink {
    var received: [String] = []
    var hook: (() -> Void)?
}

final class DifferentialTarget: @unchecked Sendable {
    // Sound: a `DifferentialRun` runs on one thread: every send,
    // and so every handler that touches `sink`, runs on the thread that made the target.
    let id: Int
    let sink: Sink
    init(id: Int, sink: Sink) {
        self.id = id
        self.sink = sink
    }

    func receive(_ message: Int, version: Int, value: Int) {
        sink.received.append("t\(id).m\(message).v\(version)(\(value))")
        if let hook = sink.hook {
            sink.hook = nil
            hook()
        }
    }
}

enum DifferentialMessages {
    static let voids = (0..<3).map { Message<Int, Void>("differential.void\($0):") }
    static let answer = Message<Int, Int>("differential.answer:")
}

/// Seeded random programs of add / insert / remove / cancel / target death / send, including
/// mutations from inside handlers, run against one chain and a plain reference model of it:
/// every observable result (deliveries, answers, responds, targets, count, contains, retention,
/// remove's result) must agree with the model's.
package struct DifferentialRun {
    /// One registration in the model: the target, what it answers (message → handler version).
    struct ModelEntry {
        var targetID: Int
        var handlers: [Int: Int]
        var strong: Bool
        var registrationID: Int
    }

    var rng: SeededGenerator
    package let chain: any ChainUnderTest
    let sink = Sink()
    /// Targets the test itself keeps alive, by id.
    var held: [Int: DifferentialTarget] = [:]
    /// Weak views of every target ever made, to know which are alive.
    var weakTargets: [Int: WeakTarget] = [:]
    var model: [ModelEntry] = []
    var tokens: [(token: any TokenUnderTest, registrationID: Int)] = []
    var nextTargetID = 0
    var nextVersion = 0
    var nextRegistrationID = 0
    package private(set) var mismatches: [String] = []
    package private(set) var sends = 0
    /// How many sends had a handler remove a target, and add one.
    package private(set) var hookRemovals = 0, hookAdditions = 0
    var stepIndex = 0

    final class WeakTarget {
        weak var target: DifferentialTarget?
        init(_ target: DifferentialTarget) { self.target = target }
    }

    /// A run of `seed`'s program on a new chain of `kind`.
    package init(seed: UInt64, kind: ChainKind, mode: DelegateChain.Mode) {
        rng = SeededGenerator(seed: seed)
        chain = kind.make(mode: mode)
    }

    // MARK: Model helpers

    func isAlive(_ id: Int) -> Bool { weakTargets[id]?.target != nil }

    /// Model entries whose target is alive, in order.
    var liveModel: [ModelEntry] { model.filter { isAlive($0.targetID) } }

    mutating func randomHandlers() -> [Int: Int] {
        var handlers: [Int: Int] = [:]
        for message in 0..<4 where Bool.random(using: &rng) {
            nextVersion += 1
            handlers[message] = nextVersion
        }
        return handlers
    }

    func responses(_ handlers: [Int: Int]) -> SendableResponses<DifferentialTarget> {
        var responses = SendableResponses<DifferentialTarget>()
        for (message, version) in handlers {
            if message < 3 {
                responses = responses.on(DifferentialMessages.voids[message]) { me, value in
                    me.receive(message, version: version, value: value)
                }
            } else {
                responses = responses.on(DifferentialMessages.answer) { me, value in
                    me.receive(3, version: version, value: value)
                    return version * 1_000 + value
                }
            }
        }
        return responses
    }

    // MARK: Operations

    /// One random operation, checked against the model.
    package mutating func step() {
        stepIndex += 1
        let roll = Int.random(in: 0..<100, using: &rng)
        switch roll {
        case 0..<14: addNew(at: nil)
        case 14..<18: addNew(at: Int.random(in: 0...liveModel.count, using: &rng))
        case 18..<22: addExisting()
        case 22..<28: removeSome()
        case 28..<31: cancelSome()
        case 31..<37: dropSome()
        case 37..<38 where Int.random(in: 0..<20, using: &rng) == 0: removeAll()
        case 38..<46: sendWithHook()
        case 46..<54: checkResponds()
        case 54..<64: sendAnswer()
        default: sendVoid()
        }
        if model.count > 64 { removeSome() }
    }

    mutating func makeTarget() -> DifferentialTarget {
        nextTargetID += 1
        let target = DifferentialTarget(id: nextTargetID, sink: sink)
        held[target.id] = target
        weakTargets[target.id] = WeakTarget(target)
        return target
    }

    mutating func addNew(at index: Int?) {
        let target = makeTarget()
        let handlers = randomHandlers()
        let strong = Int.random(in: 0..<4, using: &rng) == 0
        nextRegistrationID += 1
        let entry = ModelEntry(
            targetID: target.id, handlers: handlers, strong: strong, registrationID: nextRegistrationID)
        let token: any TokenUnderTest
        if let index {
            token = chain.insert(target, at: index, retention: strong ? .strong : .weak, responses: responses(handlers))
            let live = liveModel
            if index < live.count {
                let before = live[index].registrationID
                model.insert(entry, at: model.firstIndex { $0.registrationID == before }!)
            } else {
                model.append(entry)
            }
        } else {
            token = chain.add(target, retention: strong ? .strong : .weak, responses: responses(handlers))
            model.append(entry)
        }
        tokens.append((token, entry.registrationID))
    }

    mutating func addExisting() {
        let live = liveModel
        guard let entry = live.randomElement(using: &rng), let target = weakTargets[entry.targetID]?.target else {
            return
        }
        let handlers = randomHandlers()
        let strong = Bool.random(using: &rng)
        let token = chain.add(target, retention: strong ? .strong : .weak, responses: responses(handlers))
        let position = model.firstIndex { $0.registrationID == entry.registrationID }!
        model[position].handlers.merge(handlers) { _, new in new }
        model[position].strong = strong
        tokens.append((token, entry.registrationID))
    }

    mutating func removeSome() {
        guard let entry = model.randomElement(using: &rng) else { return }
        if let target = weakTargets[entry.targetID]?.target {
            let removed = chain.remove(target)
            if !removed { mismatches.append("step \(stepIndex): remove of t\(entry.targetID) found nothing") }
        }
        model.removeAll { $0.registrationID == entry.registrationID }
    }

    mutating func cancelSome() {
        guard !tokens.isEmpty else { return }
        let (token, registrationID) = tokens.remove(at: Int.random(in: 0..<tokens.count, using: &rng))
        token.cancel()
        model.removeAll { $0.registrationID == registrationID }
    }

    /// The test lets go of a target: a weak one dies, a strong one lives on in the chain.
    mutating func dropSome() {
        guard let id = held.keys.randomElement(using: &rng) else { return }
        held[id] = nil
        if !isAlive(id) { model.removeAll { $0.targetID == id } }
    }

    mutating func removeAll() {
        chain.removeAll()
        model.removeAll()
    }

    // MARK: Sends

    func expectedDelivery(message: Int, value: Int, breaking: Bool) -> [(ModelEntry, String)] {
        var out: [(ModelEntry, String)] = []
        for entry in liveModel {
            guard let version = entry.handlers[message] else { continue }
            out.append((entry, "t\(entry.targetID).m\(message).v\(version)(\(value))"))
            if breaking { break }
        }
        return out
    }

    mutating func sendVoid() {
        sends += 1
        let message = Int.random(in: 0..<3, using: &rng)
        let value = Int.random(in: 0..<1_000, using: &rng)
        let expected = expectedDelivery(message: message, value: value, breaking: chain.mode == .breaking).map(\.1)
        sink.received.removeAll()
        chain.send(DifferentialMessages.voids[message], value)
        if sink.received != expected {
            mismatches.append("step \(stepIndex): m\(message) got \(sink.received) expected \(expected)")
        }
    }

    /// A send whose first handler removes a random registration or adds a new target.
    mutating func sendWithHook() {
        let live = liveModel
        if Bool.random(using: &rng), let victim = live.randomElement(using: &rng),
            let victimTarget = weakTargets[victim.targetID]?.target
        {
            hookRemovals += 1
            sink.hook = { [chain] in _ = chain.remove(victimTarget) }
            // Whether the hook runs depends on whether any handler runs; model both outcomes.
            let message = Int.random(in: 0..<3, using: &rng)
            let value = Int.random(in: 0..<1_000, using: &rng)
            sends += 1
            var expected: [String] = []
            var hookRan = false
            for entry in live {
                guard let version = entry.handlers[message] else { continue }
                if hookRan && entry.registrationID == victim.registrationID { continue }
                expected.append("t\(entry.targetID).m\(message).v\(version)(\(value))")
                hookRan = true
                if chain.mode == .breaking { break }
            }
            sink.received.removeAll()
            chain.send(DifferentialMessages.voids[message], value)
            if sink.received != expected {
                mismatches.append(
                    "step \(stepIndex): hook-remove m\(message) got \(sink.received) expected \(expected)")
            }
            if hookRan { model.removeAll { $0.registrationID == victim.registrationID } }
            sink.hook = nil
        } else {
            let target = makeTarget()
            let handlers = randomHandlers()
            let responses = responses(handlers)
            hookAdditions += 1
            sink.hook = { [chain] in chain.add(target, responses: responses) }
            let message = Int.random(in: 0..<3, using: &rng)
            let value = Int.random(in: 0..<1_000, using: &rng)
            sends += 1
            let expected = expectedDelivery(message: message, value: value, breaking: chain.mode == .breaking).map(\.1)
            sink.received.removeAll()
            chain.send(DifferentialMessages.voids[message], value)
            if sink.received != expected {
                mismatches.append("step \(stepIndex): hook-add m\(message) got \(sink.received) expected \(expected)")
            }
            if !expected.isEmpty {
                nextRegistrationID += 1
                model.append(
                    ModelEntry(
                        targetID: target.id, handlers: handlers, strong: false, registrationID: nextRegistrationID))
            }
            sink.hook = nil
        }
    }

    mutating func sendAnswer() {
        sends += 1
        let value = Int.random(in: 0..<1_000, using: &rng)
        let first = liveModel.first { $0.handlers[3] != nil }
        let expected = first.map { $0.handlers[3]! * 1_000 + value }
        sink.received.removeAll()
        let answer = chain.send(DifferentialMessages.answer, value)
        if answer != expected || sink.received.count != (first == nil ? 0 : 1) {
            mismatches.append(
                "step \(stepIndex): answer \(String(describing: answer)) expected \(String(describing: expected))")
        }
        let withDefault = chain.send(DifferentialMessages.answer, value, default: -1)
        if withDefault != expected ?? -1 {
            mismatches.append("step \(stepIndex): answer with default \(withDefault) expected \(expected ?? -1)")
        }
    }

    mutating func checkResponds() {
        let message = Int.random(in: 0..<3, using: &rng)
        let expected = liveModel.contains { $0.handlers[message] != nil }
        if chain.responds(to: DifferentialMessages.voids[message]) != expected {
            mismatches.append("step \(stepIndex): responds(m\(message)) expected \(expected)")
        }
        let liveIDs = liveModel.map(\.targetID)
        let chainIDs = chain.targets.map { ($0 as! DifferentialTarget).id }
        if liveIDs != chainIDs { mismatches.append("step \(stepIndex): targets \(chainIDs) expected \(liveIDs)") }
        if chain.count != liveIDs.count {
            mismatches.append("step \(stepIndex): count \(chain.count) expected \(liveIDs.count)")
        }
        if let entry = liveModel.randomElement(using: &rng), let target = weakTargets[entry.targetID]?.target {
            let retention: Retention = entry.strong ? .strong : .weak
            if !chain.contains(target) || chain.retention(of: target) != retention {
                mismatches.append("step \(stepIndex): t\(entry.targetID) not held \(retention)")
            }
        }
    }
}
