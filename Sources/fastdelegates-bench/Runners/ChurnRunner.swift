/// A multiplexer that targets are added to one at a time and removed from: the chains and the
/// naive multicast. Its methods are `@inline(__always)` (see ``Runner``).
protocol Membership: Ticking {
    associatedtype Target: SummingTarget
    func add(_ target: Target)
    func remove(_ target: Target)
    /// Whether every churn step removes the retired target (a strong hold never lets it die),
    /// not only every other step.
    var removesEveryStep: Bool { get }
}

extension Membership {
    var removesEveryStep: Bool { false }

    /// Adds `n` fresh targets, and returns them.
    func populate(_ n: Int) -> [Target] {
        let targets = Target.make(n)
        for target in targets { add(target) }
        return targets
    }
}

/// The churn scenario, the same steps for every variant: each step retires the oldest target
/// (removed on even steps, dropped to die on odd ones, unless `removesEveryStep`), adds a fresh
/// one, and ticks. The checksum counts the sums of the dead targets too.
final class ChurnRunner<Multiplexer: Membership>: Runner {
    typealias Target = Multiplexer.Target
    let multiplexer: Multiplexer
    /// Collects the sums of the targets that died.
    let bank = Bank()
    var live: [Target?] = []
    var cursor = 0
    var step = 0

    /// Adds `n` fresh targets to `multiplexer`, an empty one.
    init(_ multiplexer: Multiplexer, targets n: Int) {
        self.multiplexer = multiplexer
        live = (0..<n).map { _ in Target(churnBank: bank) }
        for target in live { multiplexer.add(target!) }
    }

    @inline(never)
    func run(_ count: Int, base: Int) {
        for i in 0..<count {
            if let old = live[cursor], multiplexer.removesEveryStep || step & 1 == 0 { multiplexer.remove(old) }
            let fresh = Target(churnBank: bank)
            live[cursor] = fresh // the old target dies here
            multiplexer.add(fresh)
            cursor = cursor + 1 == live.count ? 0 : cursor + 1
            step &+= 1
            multiplexer.tick(base &+ i)
        }
    }

    var checksum: Int { live.reduce(bank.total) { $0 &+ ($1?.sum ?? 0) } }
}

extension AnyRunner {
    /// The churn scenario on `multiplexer` (empty), with `n` live targets.
    static func churn(_ multiplexer: some Membership, targets n: Int) -> AnyRunner {
        AnyRunner(ChurnRunner(multiplexer, targets: n))
    }
}
