// The figures of issue 43 and of the chains' cost notes, through the public API:
//   cd scripts/reliability-measure && swift build -c release && .build/release/Measure [chain|concurrent|threads]
import FastDelegates
import Foundation
import Synchronization

// Release-mode figures through the public API (issue 43): RSS growth and per-operation times.
enum M {
    static let tick = Message<Int, Void>("measure.tick")
    static let other = Message<Int, Void>("measure.other")
}
final class T: @unchecked Sendable { var n = 0 }

func rssKB() -> Int {
    let s = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
let responses = Responses<T>().on(M.tick) { me, v in me.n &+= v }.on(M.other) { me, v in me.n &+= v }
let sresponses = SendableResponses<T>().on(M.tick) { me, v in me.n &+= v }.on(M.other) { me, v in me.n &+= v }
let what = CommandLine.arguments.dropFirst().first ?? "all"
let n = 1_000

if what == "all" || what == "chain" {
    // DelegateChain: 10,000 add/remove pairs inside one handler, 1,000 listeners.
    let chain = DelegateChain()
    let targets = (0..<n).map { _ in T() }
    for t in targets { chain.add(t, responses: responses) }
    let extra = (0..<10_000).map { _ in T() }
    let trigger = T()
    var inside: (UInt64, Int) = (0, 0)
    chain.add(trigger, responses: Responses<T>().on(M.other) { _, _ in
        let before = rssKB(); let t0 = now()
        for e in extra { chain.add(e, responses: responses); chain.remove(e) }
        inside = (now() - t0, rssKB() - before)
    })
    chain.send(M.other, 1)
    let t0 = now()
    for e in extra { chain.add(e, responses: responses); chain.remove(e) }
    let outside = now() - t0
    print("DelegateChain n=\(n): 10000 add/remove pairs in a handler: \(Double(inside.0)/10000/1000) us/pair, RSS +\(inside.1/1024) MB; outside a send: \(Double(outside)/10000/1000) us/pair")
    // send cost at n
    let s0 = now(); for i in 0..<10_000 { chain.send(M.tick, i) }
    print("DelegateChain n=\(n): send \(Double(now()-s0)/10000/1000) us")
    withExtendedLifetime((targets, extra, trigger)) {}
}
if what == "all" || what == "concurrent" {
    let chain = ConcurrentDelegateChain()
    let targets = (0..<n).map { _ in T() }
    for t in targets { chain.add(t, responses: sresponses) }
    let extra = (0..<20_000).map { _ in T() }
    let started = Atomic<Bool>(false), release = Atomic<Bool>(false)
    let trigger = T()
    chain.add(trigger, responses: SendableResponses<T>().on(M.other) { _, _ in
        started.store(true, ordering: .sequentiallyConsistent)
        while !release.load(ordering: .sequentiallyConsistent) { usleep(1000) }
    })
    let before = rssKB()
    let thread = Thread { chain.send(M.other, 1) }
    thread.start()
    while !started.load(ordering: .sequentiallyConsistent) { usleep(100) }
    let t0 = now()
    for i in 0..<10_000 { chain.add(extra[i], responses: sresponses); chain.remove(extra[i]) }
    let during = now() - t0
    let grown = rssKB() - before
    release.store(true, ordering: .sequentiallyConsistent)
    usleep(100_000)
    chain.send(M.tick, 1)
    let t1 = now()
    for i in 10_000..<20_000 { chain.add(extra[i], responses: sresponses); chain.remove(extra[i]) }
    let outside = now() - t1
    print("ConcurrentDelegateChain n=\(n): 20000 mutations during a handler: RSS +\(grown/1024) MB, \(Double(during)/20000/1000) us/mutation; with no handler running: \(Double(outside)/20000/1000) us/mutation")
    let s0 = now(); for i in 0..<10_000 { chain.send(M.tick, i) }
    print("ConcurrentDelegateChain n=\(n): send \(Double(now()-s0)/10000/1000) us")
    // mutation cost before and after 2000 short-lived threads sent
    func mutationCost() -> Double {
        let e = T(); let t = now()
        for _ in 0..<200 { chain.add(e, responses: sresponses); chain.remove(e) }
        return Double(now() - t) / 400 / 1000
    }
    let beforeThreads = mutationCost()
    for _ in 0..<2_000 {
        let th = Thread { chain.send(M.tick, 1) }
        th.start()
        while !th.isFinished { usleep(50) }
    }
    let afterThreads = mutationCost()
    print("ConcurrentDelegateChain n=\(n): mutation \(beforeThreads) us before 2000 short-lived threads sent, \(afterThreads) us after")
    withExtendedLifetime((targets, extra, trigger)) {}
}
if what == "threads" {
    // Mutation cost on a one-target chain before and after 2,000 threads sent at once and ended.
    let chain = ConcurrentDelegateChain()
    let target = T()
    chain.add(target, responses: sresponses)
    func mutationCost() -> Double {
        let e = T(); let t = now()
        for _ in 0..<2_000 { chain.add(e, responses: sresponses); chain.remove(e) }
        return Double(now() - t) / 4_000 / 1000
    }
    let before = mutationCost()
    let arrived = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
    let count = 2_000
    for _ in 0..<count {
        let th = Thread { chain.send(M.tick, 1); arrived.signal(); go.wait(); ended.signal() }
        th.stackSize = 1 << 18
        th.start()
    }
    for _ in 0..<count { arrived.wait() }
    for _ in 0..<count { go.signal() }
    for _ in 0..<count { ended.wait() }
    usleep(500_000) // the threads' key destructors run after their bodies
    let after = mutationCost()
    print("ConcurrentDelegateChain, 1 target: mutation \(before) us before 2000 threads sent at once, \(after) us after they ended")
    withExtendedLifetime(target) {}
}
