/// The generated proxy of `BenchScrollDelegate`, or of one of its copies, with the host that calls
/// it through its protocol: the `fastdelegates-proxy` variants run copy ``CodePlacement/current``,
/// so that the proxy's method and its listeners' handlers sit at another address in each copy,
/// as the runner's loop does.
protocol ScrollProxyCopy: AnyObject {
    associatedtype Host: Ticking & FirstAnswering
    associatedtype Listener: SummingTarget
    /// A proxy with no listeners.
    static func make() -> Self
    /// A host whose delegate slot holds this proxy.
    var host: Host { get }
    /// Adds `target` as a listener, held weakly.
    func addListener(_ target: Listener)
    /// Adds a listener that implements no requirement, held by the proxy.
    func addBystander()
}

extension ScrollProxyCopy {
    /// The tick or first scenario on a new proxy of this copy in a host's slot, with `n`
    /// targets, each after three bystanders if `sparse`.
    static func hosted(_ scenario: Scenario, _ n: Int, sparse: Bool) -> AnyRunner? {
        let proxy = make()
        return .hosted(scenario, n, proxy.host, making: Listener.self) { target in
            if sparse { for _ in 0..<3 { proxy.addBystander() } }
            proxy.addListener(target)
        }
    }
}

enum ScrollProxyCopies {
    /// The tick or first scenario on the proxy of copy ``CodePlacement/current``.
    static func hosted(_ scenario: Scenario, _ n: Int, sparse: Bool) -> AnyRunner? {
        switch CodePlacement.current % CodePlacement.copies {
        case 1: BenchScrollDelegateCopy1Proxy.hosted(scenario, n, sparse: sparse)
        case 2: BenchScrollDelegateCopy2Proxy.hosted(scenario, n, sparse: sparse)
        case 3: BenchScrollDelegateCopy3Proxy.hosted(scenario, n, sparse: sparse)
        default: BenchScrollDelegateProxy.hosted(scenario, n, sparse: sparse)
        }
    }
}

extension BenchScrollDelegateProxy: ScrollProxyCopy {
    static func make() -> Self { Self() }
    var host: ProxyVariant.Host { ProxyVariant.Host(delegate: self) }
    func addListener(_ target: BenchTarget) { add(target) }
    func addBystander() { add(BenchBystander(), retention: .strong) }
}

extension BenchScrollDelegateCopy1Proxy: ScrollProxyCopy {
    /// The host of this copy: the protocol method called on whatever is in the slot.
    struct Host: Ticking, FirstAnswering {
        let delegate: any BenchScrollDelegateCopy1
        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
    }
    final class Bystander: BenchScrollDelegateCopy1 {}

    static func make() -> Self { Self() }
    var host: Host { Host(delegate: self) }
    func addListener(_ target: CopyListener1) { add(target) }
    func addBystander() { add(Bystander(), retention: .strong) }
}

extension BenchScrollDelegateCopy2Proxy: ScrollProxyCopy {
    /// The host of this copy: the protocol method called on whatever is in the slot.
    struct Host: Ticking, FirstAnswering {
        let delegate: any BenchScrollDelegateCopy2
        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
    }
    final class Bystander: BenchScrollDelegateCopy2 {}

    static func make() -> Self { Self() }
    var host: Host { Host(delegate: self) }
    func addListener(_ target: CopyListener2) { add(target) }
    func addBystander() { add(Bystander(), retention: .strong) }
}

extension BenchScrollDelegateCopy3Proxy: ScrollProxyCopy {
    /// The host of this copy: the protocol method called on whatever is in the slot.
    struct Host: Ticking, FirstAnswering {
        let delegate: any BenchScrollDelegateCopy3
        @inline(__always) func tick(_ value: Int) { delegate.scrollTick(value) }
        @inline(__always) func first(_ value: Int) -> Int? { delegate.firstResponder(value) }
    }
    final class Bystander: BenchScrollDelegateCopy3 {}

    static func make() -> Self { Self() }
    var host: Host { Host(delegate: self) }
    func addListener(_ target: CopyListener3) { add(target) }
    func addBystander() { add(Bystander(), retention: .strong) }
}

/// `BenchTarget`'s work for the proxies of copies 1–3, with its fields at other offsets in each:
/// the handlers that a copy's proxy calls are then code of their own. `BenchTarget`'s handlers for
/// the copies' protocols would be identical code, which the optimizer merges into one function
/// that every copy, the first too, calls through a thunk (4 instructions more per target).
final class CopyListener1: BenchScrollDelegateCopy1, SummingTarget {
    var sum = 0
    let bank: Bank?
    /// The answer's increment, so that the query's handler is code of this class's own too: a
    /// `var`, which the optimizer cannot fold as it folds a `let` with a constant value (the
    /// handler would then be `BenchTarget`'s code, merged with it).
    var one = 1
    init(bank: Bank? = nil) { self.bank = bank }
    convenience init(churnBank bank: Bank) { self.init(bank: bank) }
    deinit { bank?.total &+= sum }
    static func make(_ n: Int) -> [CopyListener1] { (0..<n).map { _ in CopyListener1() } }
    func scrollTick(_ value: Int) { sum &+= value }
    func firstResponder(_ value: Int) -> Int { value &+ one }
}

/// ``CopyListener1`` with its fields two words further on (one word would put `sum` where
/// `BenchTarget` has it).
final class CopyListener2: BenchScrollDelegateCopy2, SummingTarget {
    private let padding = (0, 0)
    var sum = 0
    let bank: Bank?
    var one = 1
    init(bank: Bank? = nil) { self.bank = bank }
    convenience init(churnBank bank: Bank) { self.init(bank: bank) }
    deinit { bank?.total &+= sum }
    static func make(_ n: Int) -> [CopyListener2] { (0..<n).map { _ in CopyListener2() } }
    func scrollTick(_ value: Int) { sum &+= value }
    func firstResponder(_ value: Int) -> Int { value &+ one }
}

/// ``CopyListener1`` with its fields three words further on.
final class CopyListener3: BenchScrollDelegateCopy3, SummingTarget {
    private let padding = (0, 0, 0)
    var sum = 0
    let bank: Bank?
    var one = 1
    init(bank: Bank? = nil) { self.bank = bank }
    convenience init(churnBank bank: Bank) { self.init(bank: bank) }
    deinit { bank?.total &+= sum }
    static func make(_ n: Int) -> [CopyListener3] { (0..<n).map { _ in CopyListener3() } }
    func scrollTick(_ value: Int) { sum &+= value }
    func firstResponder(_ value: Int) -> Int { value &+ one }
}
