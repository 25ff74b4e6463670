import Testing

@testable import FastDelegates

/// Seeded random programs of add / insert / remove / cancel / target death / send, including
/// mutations from inside handlers, run on every chain against one reference model
/// (`DifferentialRun`); every observable result must agree.
@Suite("Every chain: differential against one reference model")
struct ChainDifferentialTests {
    /// Operations per seed: fewer on the concurrent chain, whose every mutation rebuilds a snapshot.
    static func operationsPerSeed(_ kind: ChainKind) -> Int { kind.isConcurrent ? 20_000 : 100_000 }

    @Test(arguments: ChainKind.allCases, Soak.seeds([1, 2, 3]))
    func randomProgramsAgreeWithTheModel(kind: ChainKind, seed: UInt64) {
        let operations = Self.operationsPerSeed(kind)
        var run = DifferentialRun(seed: seed, kind: kind, mode: seed % 2 == 0 ? .breaking : .nonBreaking)
        for step in 0..<operations {
            run.step()
            if step % 997 == 0 { #expect(run.chain.invariantViolation == 0, "seed \(seed) step \(step)") }
            if !run.mismatches.isEmpty { break }
        }
        if Soak.reporting { print("soak: differential \(kind) seed \(seed): \(operations) operations") }
        #expect(run.mismatches == [], "\(kind) seed \(seed)")
        #expect(run.chain.invariantViolation == 0)
        #expect(run.sends > operations / 4)
        #expect(run.hookRemovals > 0 && run.hookAdditions > 0)
    }
}
