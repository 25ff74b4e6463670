import Testing

@testable import FastDelegates

/// Issue 15 item 2: a registration's identity never aliases another's. The C slot generation is
/// 32 bits and wraps after 2^32 - 1 acquisitions; a test hook starts it near the wrap, so that a
/// new registration takes the generation of an older one (live or removed).
@Suite("Identities never alias")
struct IdentityTests {
    @Test func aStaleTokenNeverRemovesALaterRegistrationWithTheSameGeneration() {
        let log = Log()
        let chain = DelegateChain()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        let tokenA = chain.add(a)
        let generationA = chain.generationForTesting(of: a)!
        chain.remove(a)
        chain.setNextGenerationForTesting(generationA &- 1) // the next slot takes generationA again
        chain.add(b)
        #expect(chain.generationForTesting(of: b) == generationA)
        tokenA.cancel() // stale: names a's registration, not b's
        #expect(chain.contains(b))
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["b.didScroll(1)"])
        #expect(chain.invariantViolation == 0)
    }

    @Test func twoLiveRegistrationsWithTheSameGenerationAcrossTheWrapStayApart() {
        let log = Log()
        let chain = DelegateChain()
        let old = Probe("old", log: log)
        let tokenOld = chain.add(old) // generation 1
        #expect(chain.generationForTesting(of: old) == 1)
        chain.setNextGenerationForTesting(UInt32.max - 1)
        let wrapping = Probe("wrapping", log: log), reissued = Probe("reissued", log: log)
        chain.add(wrapping) // generation UInt32.max
        let tokenReissued = chain.add(reissued) // the counter wraps past 0 to 1: old's generation
        #expect(chain.generationForTesting(of: wrapping) == UInt32.max)
        #expect(chain.generationForTesting(of: reissued) == 1)

        tokenReissued.cancel()
        #expect(chain.contains(old))
        #expect(!chain.contains(reissued))
        // Re-adding, then removing by target, must not clear the other one's index entries.
        let tokenAgain = chain.add(reissued)
        #expect(chain.remove(old))
        #expect(chain.contains(reissued))
        tokenOld.cancel() // already removed: changes nothing
        #expect(chain.contains(reissued) && chain.contains(wrapping))
        chain.send(Scroll.didScroll, 1)
        #expect(log.events == ["wrapping.didScroll(1)", "reissued.didScroll(1)"])
        tokenAgain.cancel()
        #expect(chain.targets.map(ObjectIdentifier.init) == [ObjectIdentifier(wrapping)])
        #expect(chain.invariantViolation == 0)
    }

    @Test func aDeathNeverRemovesAnotherRegistrationWithTheSameGeneration() {
        let log = Log()
        let chain = DelegateChain()
        let token: DelegateToken
        let generation: UInt32
        do {
            let doomed = Probe("doomed", log: log)
            token = chain.add(doomed)
            generation = chain.generationForTesting(of: doomed)!
            chain.send(Scroll.didScroll, 0)
        }
        chain.send(Scroll.didScroll, 1) // finds the death and reclaims the registration
        chain.setNextGenerationForTesting(generation &- 1)
        let heir = Probe("heir", log: log)
        chain.add(heir)
        #expect(chain.generationForTesting(of: heir) == generation)
        token.cancel()
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["doomed.didScroll(0)", "heir.didScroll(2)"])
        withExtendedLifetime(heir) {}
    }
}
