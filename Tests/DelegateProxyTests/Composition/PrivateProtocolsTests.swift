#if Macros
import Testing

/// Two files of one module that each declare a private `@DelegateProxy` protocol called `Pinger`
/// with the same requirements: both proxies work, each with its own listeners.
@Suite("Same-named private protocols")
@MainActor struct PrivateProtocolsTests {
    @Test func eachFileReachesItsOwnListener() async {
        var inner: (answer: String?, ticks: Int) = (nil, 0)
        let outer = await pingerOfFileA {
            inner = await pingerOfFileB {}
        }
        #expect(outer.answer == "A pings view")
        #expect(outer.ticks == 1)
        #expect(inner.answer == "B pings view")
        #expect(inner.ticks == 1)
    }
}
#endif
