import FastDelegates

// A placeholder until the benchmark CLI lands: one small dispatch, checked.
enum Scroll {
    static let didScroll = Message<Int, Void>("scrollViewDidScroll:")
}

final class Counter: DelegateResponder {
    var sum = 0
    static let responses = Responses<Counter>().on(Scroll.didScroll) { me, value in me.sum += value }
}

let counters = (0..<4).map { _ in Counter() }
let chain = DelegateChain()
for counter in counters { chain.add(counter) }
for tick in 1...1_000 { chain.send(Scroll.didScroll, tick) }
let checksum = counters.reduce(0) { $0 + $1.sum }
print("fastdelegates-bench: 4 targets x 1000 ticks, checksum \(checksum) (expected \(4 * 500_500))")
if checksum != 4 * 500_500 { fatalError("checksum mismatch") }
