import FastDelegates
import PureSwiftProxy
import Testing

@testable import fastdelegates_bench

/// Random operation sequences run on FastDelegates' `DelegateChain` and on the pure-Swift
/// `ProxyChain` reference model: both must deliver the same messages to the same targets.
@Suite struct DifferentialTests {
    static let tick = Message<Int, Void>("differential.tick:")
    static let first = Message<Int, Int>("differential.first:")
    static let proxyTick = ProxyMessage<Int, Void>("differential.tick:")
    static let proxyFirst = ProxyMessage<Int, Int>("differential.first:")

    /// A target, named by its number, that logs each tick it receives.
    typealias Node = ProxyChainTests.Logged
    typealias Log = ProxyChainTests.Log

    static let responses = SendableResponses<Node>()
        .on(tick) { me, value in me.log.entries.append("\(me.name):\(value)") }
        .on(first) { me, value in (Int(me.name) ?? 0) &* 1000 &+ value }
    static let proxyResponses = ProxyResponses<Node>()
        .on(proxyTick) { me, value in me.log.entries.append("\(me.name):\(value)") }
        .on(proxyFirst) { me, value in (Int(me.name) ?? 0) &* 1000 &+ value }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func sameDeliveries(seed: UInt64) {
        for breaking in [false, true] {
            var random = SplitMix64(seed: seed)
            let fastLog = Log(), proxyLog = Log()
            let fast = DelegateChain(mode: breaking ? .breaking : .nonBreaking)
            let proxy = ProxyChain(mode: breaking ? .breaking : .nonBreaking)
            // Parallel target pools: index i is "the same" target in both worlds.
            var fastNodes: [Node?] = Array(repeating: nil, count: 8)
            var proxyNodes: [Node?] = Array(repeating: nil, count: 8)
            var answers: [(Int?, Int?)] = []
            var next = 1
            for step in 0..<300 {
                let slot = Int(random.next() % 8)
                switch random.next() % 7 {
                case 0, 1: // add a fresh target (weak or strong)
                    let strong = random.next() % 3 == 0
                    let (f, p) = (Node("\(next)", fastLog), Node("\(next)", proxyLog))
                    next += 1
                    fastNodes[slot] = f
                    proxyNodes[slot] = p
                    fast.add(f, retention: strong ? .strong : .weak, responses: Self.responses)
                    proxy.add(p, retention: strong ? .strong : .weak, responses: Self.proxyResponses)
                case 2: // re-add an existing target (stays in place)
                    if let f = fastNodes[slot], let p = proxyNodes[slot] {
                        fast.add(f, responses: Self.responses)
                        proxy.add(p, responses: Self.proxyResponses)
                    }
                case 3: // remove
                    if let f = fastNodes[slot], let p = proxyNodes[slot] {
                        #expect(fast.remove(f) == proxy.remove(p))
                    }
                case 4: // drop our reference (a weak target dies)
                    fastNodes[slot] = nil
                    proxyNodes[slot] = nil
                default:
                    fast.send(Self.tick, step)
                    proxy.send(Self.proxyTick, step)
                    answers.append((fast.send(Self.first, step), proxy.send(Self.proxyFirst, step)))
                    #expect(fast.responds(to: Self.tick) == proxy.responds(to: Self.proxyTick))
                }
            }
            #expect(fastLog.entries == proxyLog.entries, "seed \(seed), breaking \(breaking)")
            #expect(answers.map(\.0) == answers.map(\.1))
        }
    }
}
