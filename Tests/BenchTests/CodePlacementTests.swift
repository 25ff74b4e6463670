import Testing

@testable import fastdelegates_bench

/// The copies of each tick variant's timed loop (and of the proxy's method) that the harness
/// measures in each process, and how it pools them. No timing.
@Suite struct CodePlacementTests {
    /// Names the copy that `CodePlacement.make` chose.
    struct ShiftName: CodeShiftChoice {
        func make<Shift: CodeShift>(_: Shift.Type) -> String { String(describing: Shift.self) }
    }

    /// Each copy is its own type parameter, so its own specialization of the runner.
    @Test func eachCopyIsItsOwnShift() {
        let names = (0..<CodePlacement.copies).map { copy in
            CodePlacement.$current.withValue(copy) { CodePlacement.make(ShiftName()) }
        }
        #expect(names == ["CodeShift0", "CodeShift80", "CodeShift160", "CodeShift240"])
    }

    /// With every copy in each process, each worker runs all four; with one, the workers take
    /// them in turn, each variant from its own start; a shift moves one variant's start only.
    @Test func workersRunEveryCopyOrTakeThemInTurn() {
        for worker in 0..<7 {
            let all = CodePlacement(copiesPerProcess: 4, worker: worker)
            #expect(Set(all.copies(for: "fastdelegates-proxy")) == [0, 1, 2, 3])
        }
        let turns = (0..<4).flatMap { CodePlacement(copiesPerProcess: 1, worker: $0).copies(for: "fastdelegates-weak") }
        #expect(Set(turns) == [0, 1, 2, 3])
        let starts = allVariants.map { CodePlacement.single.copies(for: $0.name)[0] }
        #expect(Set(starts).count > 1)
        let shifted = CodePlacement(copiesPerProcess: 1, worker: 2, shift: ["fastdelegates-proxy": 1])
        let unshifted = CodePlacement(copiesPerProcess: 1, worker: 2)
        #expect(
            shifted.copies(for: "fastdelegates-proxy")[0] == (unshifted.copies(for: "fastdelegates-proxy")[0] + 1) % 4)
        #expect(shifted.copies(for: "fastdelegates-weak") == unshifted.copies(for: "fastdelegates-weak"))
        #expect(CodePlacement.parseShift("fastdelegates-proxy=3")?.copies == 3)
        #expect(CodePlacement.parseShift("fastdelegates-proxy") == nil)
    }

    /// Every copy of every tick variant sends what the original sends: its checksum verifies at
    /// N = 3. On the main actor, as the harness runs (`fastdelegates-mainactor` checks it).
    @MainActor @Test(arguments: 0..<CodePlacement.copies)
    func everyCopyOfEveryTickVariantSendsCorrectly(_ copy: Int) throws {
        for variant in allVariants {
            let made = CodePlacement.$current.withValue(copy) { variant.make(.tick, 3) }
            guard let runner = made else { continue }
            runner.run(50, base: 10)
            let expected = Scenario.tick.expectedChecksum(
                targets: 3, breaking: variant.breaking, dispatches: 50, valueSum: 50 * 10 + 49 * 50 / 2)
            #expect(runner.checksum == expected, "\(variant.name), copy \(copy)")
        }
    }

    /// The copies of one variant's runner pool into one measurement with all their samples; a
    /// wrong checksum in any copy stays wrong; other variants stay apart.
    @Test func copiesPoolIntoOneMeasurement() {
        func m(_ variant: String, _ copy: Int, _ samples: [Double], checksum: Int = 5) -> Measurement {
            Measurement(
                variant: variant, scenario: "tick", targets: 1, samples: samples, allocationsPerDispatch: 0,
                checksum: checksum, expectedChecksum: 5, batch: 100, discarded: 1, codeCopies: [copy])
        }
        let pooled = Measurement.pooling([
            m("a", 0, [1, 2]), m("a", 1, [30, 40]), m("a", 2, [3]), m("b", 0, [7]), m("b", 1, [8], checksum: 6),
        ])
        #expect(pooled.map(\.variant) == ["a", "b"])
        #expect(pooled[0].samples == [1, 2, 30, 40, 3])
        #expect(pooled[0].median == 3)
        #expect(pooled[0].codeCopies == [0, 1, 2])
        #expect(pooled[0].discarded == 3)
        #expect(pooled[0].checksum == pooled[0].expectedChecksum)
        #expect(pooled[1].checksum != pooled[1].expectedChecksum)
    }

    /// Measured with four copies, a tick variant gives one verified measurement over four
    /// copies, with about as many samples as without copies; other scenarios run one copy.
    @Test func theHarnessMeasuresEachCopyAndPoolsThem() throws {
        var settings = HarnessSettings(
            samples: 8, warmupSamples: 1, sampleNanoseconds: 100_000, allocationDispatches: 10,
            countAllocations: false, seed: 3)
        settings.codePlacement = CodePlacement(copiesPerProcess: 4, worker: 1)
        let variants = allVariants.filter { ["fastdelegates-weak", "fastdelegates-proxy"].contains($0.name) }
        let tick = Harness(settings: settings).measure([.tick], targets: 2, variants: variants)
        #expect(tick.map(\.variant) == ["fastdelegates-weak", "fastdelegates-proxy"])
        for measurement in tick {
            #expect(Set(measurement.codeCopies) == [0, 1, 2, 3])
            #expect(measurement.samples.count == 8)
            #expect(measurement.checksum == measurement.expectedChecksum)
        }
        let first = Harness(settings: settings).measure([.first], targets: 2, variants: variants)
        #expect(first.allSatisfy { $0.codeCopies == [0] && $0.samples.count == 8 })
    }
}
