import FastDelegates

/// The churn scenario, the same steps for every variant: each step retires the oldest target
/// (removed on even steps, dropped to die on odd ones, unless `removesEveryStep`), adds a fresh
/// one, and ticks. The checksum counts the sums of the dead targets too.
///
/// A variant conforms with a small final class that adds, removes and ticks through its
/// multiplexer. The steps are a protocol extension, not a generic class, so that each
/// conformance's `run` is specialized for its class (a generic class reached through `any
/// Runner` would run its unspecialized code).
protocol Churning: Runner {
    associatedtype Target: AnyObject
    /// The scenario's state (set up by `setUpChurn`).
    var churn: ChurnState<Target> { get }
    /// A new target whose sum goes to `bank` when it dies.
    func makeTarget(bank: Bank) -> Target
    /// The target's sum of the ticks it received.
    func sum(of target: Target) -> Int
    func add(_ target: Target)
    func remove(_ target: Target)
    func tick(_ value: Int)
    /// Whether every step removes the retired target (a strong hold never lets it die), not
    /// only every other step.
    var removesEveryStep: Bool { get }
}

/// The targets of a churn scenario, the bank of the dead ones, and the position of the steps.
final class ChurnState<Target: AnyObject> {
    let bank = Bank()
    var live: [Target?] = []
    var cursor = 0
    var step = 0
}

extension Churning {
    var removesEveryStep: Bool { false }

    /// Adds `n` fresh targets; call it once, from the conformer's `init`.
    func setUpChurn(_ n: Int) {
        churn.live = (0..<n).map { _ in makeTarget(bank: churn.bank) }
        for target in churn.live { add(target!) }
    }

    func run(_ count: Int, base: Int) {
        let churn = self.churn
        for i in 0..<count {
            if let old = churn.live[churn.cursor], removesEveryStep || churn.step & 1 == 0 { remove(old) }
            let fresh = makeTarget(bank: churn.bank)
            churn.live[churn.cursor] = fresh // the old target dies here
            add(fresh)
            churn.cursor = churn.cursor + 1 == churn.live.count ? 0 : churn.cursor + 1
            churn.step &+= 1
            tick(base &+ i)
        }
    }

    var checksum: Int { churn.live.reduce(churn.bank.total) { $0 &+ ($1.map(sum(of:)) ?? 0) } }
}
