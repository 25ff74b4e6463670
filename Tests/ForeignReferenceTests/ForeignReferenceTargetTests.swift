import CxxCanary
import FastDelegates
import Testing

/// A C++ foreign reference type satisfies `AnyObject` in Swift 6.3 (swiftlang/swift#90015). A
/// chain that kept one would write Swift reference counts into the C++ object; every
/// registration refuses it instead, before storing anything.
@Suite("Foreign reference types as targets")
struct ForeignReferenceTargetTests {
    static let tick = Message<Int, Void>("ForeignReferenceTargetTests.tick")

    @Test("The canary starts with zero words and one C++ reference")
    func canaryControl() {
        let canary = canaryMake()
        #expect(canary.words.0 == 0 && canary.words.1 == 0)
        #expect(canary.references >= 1)
    }

    @Test("A weak registration on a chain is refused, naming the type")
    func weakAddIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let chain = DelegateChain()
            chain.add(canaryMake(), retention: .weak) { $0.on(ForeignReferenceTargetTests.tick) { _, _ in } }
        }
        expectRefusal(result)
    }

    @Test("A strong registration on a chain is refused")
    func strongAddIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let chain = DelegateChain()
            chain.add(canaryMake(), retention: .strong) { $0.on(ForeignReferenceTargetTests.tick) { _, _ in } }
        }
        expectRefusal(result)
    }

    @Test("A registration on the concurrent chain is refused")
    func concurrentAddIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let chain = ConcurrentDelegateChain()
            chain.add(canaryMake(), retention: .strong) { $0.on(ForeignReferenceTargetTests.tick) { _, _ in } }
        }
        expectRefusal(result)
    }

    @Test("A responder over one is refused")
    func responderIsRefused() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AnyResponder(canaryMake(), responses: Responses<Canary>())
        }
        expectRefusal(result)
    }

    /// The child process stopped at the registration's precondition, not anywhere else.
    private func expectRefusal(_ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(text.contains("Canary is a C++ foreign reference type"), sourceLocation: sourceLocation)
    }
}
