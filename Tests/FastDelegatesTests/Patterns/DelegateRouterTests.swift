import Testing

@testable import FastDelegates

/// Seed 003 (standalone delegates chosen by the selected search scope).
@Suite("Router: standalone delegates by a runtime key")
struct DelegateRouterTests {
    enum SearchScope: Hashable { case people, places, archive }

    @Test func eachSendGoesToTheCurrentKeysRouteElseTheDefault() {
        let log = Log()
        let router = DelegateRouter<SearchScope>(key: .people)
        router.route(.people, to: Probe("people", log: log))
        router.route(.places, to: Probe("places", log: log))
        router.setDefault(Probe("default", log: log))
        router.send(Scroll.didScroll, 1)
        router.key = .places
        router.send(Scroll.didScroll, 2)
        router.key = .archive // no route: the default
        router.send(Scroll.didScroll, 3)
        #expect(log.events == ["people.didScroll(1)", "places.didScroll(2)", "default.didScroll(3)"])
        #expect((router.activeTarget as? Probe)?.name == "default")
    }

    /// A route replaced or removed is released after the router's routes are mutated: its
    /// strongly held target may use the router in its deinit.
    @Test(arguments: ["replaced", "removed"])
    func aReplacedOrRemovedRoutesDeinitMayUseTheRouter(way: String) {
        let log = Log()
        let router = DelegateRouter<SearchScope>(key: .people)
        do {
            let mortal = Mortal("m", log: log)
            mortal.onDeinit = {
                router.route(.places, to: Probe("places", log: log))
                log.record("places routed: \(router.target(for: .places) != nil)")
            }
            router.route(.people, to: mortal, retention: .strong, responses: Mortal.responses)
        }
        #expect(log.events.isEmpty)
        if way == "replaced" {
            router.route(.people, to: Probe("people", log: log), retention: .strong)
        } else {
            #expect(router.removeRoute(for: .people))
        }
        #expect(log.events == ["m.deinit", "places routed: true"])
    }

    @Test func aKeyClosureIsReadOnEverySend() {
        final class SearchBar { var scope = SearchScope.people }
        let log = Log()
        let bar = SearchBar()
        let router = DelegateRouter<SearchScope>(key: { bar.scope })
        router.route(.people, to: Probe("people", log: log))
        router.route(.places, to: Probe("places", log: log))
        #expect(router.send(Scroll.heightForHeader, 1) == 601) // "people": 6 letters
        bar.scope = .places
        #expect(router.send(Scroll.heightForHeader, 1) == 601) // "places": 6 letters, other target
        #expect(log.events.isEmpty)
        router.send(Scroll.didScroll, 7)
        #expect(log.events == ["places.didScroll(7)"])
        router.key = .people // a stored key replaces the closure
        bar.scope = .places
        router.send(Scroll.didScroll, 8)
        #expect(log.events.last == "people.didScroll(8)")
    }

    @Test func anUnansweredMessageIsNilOrTheDefaultValueNotTheDefaultTarget() {
        let log = Log()
        let router = DelegateRouter<SearchScope>(key: .people)
        router.route(.people, to: Plain("people", log: log), responses: .scrolls)
        router.setDefault(Probe("default", log: log))
        #expect(!router.responds(to: Scroll.heightForHeader))
        #expect(router.send(Scroll.heightForHeader, 1) == nil)
        #expect(router.send(Scroll.heightForHeader, 1, default: 0) == 0) // the seed's `return 0`
        router.key = .places
        #expect(router.responds(to: Scroll.heightForHeader)) // follows the active route
        #expect(router.send(Scroll.heightForHeader, 1) == 701)
    }

    @Test func routesAreHeldStronglyByDefaultAndReplaceable() {
        let log = Log()
        let router = DelegateRouter<SearchScope>(key: .people)
        router.route(.people, to: Probe("first", log: log))
        router.route(.people, to: Probe("second", log: log))
        router.send(Scroll.didScroll, 1)
        #expect(log.events == ["second.didScroll(1)"])
        #expect(router.removeRoute(for: .people))
        #expect(!router.removeRoute(for: .people))
        #expect(router.send(Scroll.viewForZooming) == nil)
        do {
            let weakOne = Probe("weak", log: log)
            router.route(.places, to: weakOne, retention: .weak)
            router.key = .places
            #expect(router.target(for: .places) === weakOne)
        }
        router.setDefault(Probe("default", log: log))
        router.send(Scroll.didScroll, 2) // the weak route died: the default
        #expect(log.events.last == "default.didScroll(2)")
    }

    @Test func membershipVocabularyRemoveAllContainsIsEmpty() {
        let log = Log()
        let router = DelegateRouter<SearchScope>(key: .people)
        let people = Probe("people", log: log), fallback = Probe("default", log: log)
        let stranger = Probe("stranger", log: log)
        #expect(router.isEmpty)
        router.route(.people, to: people)
        router.setDefault(fallback)
        #expect(!router.isEmpty)
        #expect(router.contains(people) && router.contains(fallback) && !router.contains(stranger))
        router.removeAll()
        #expect(router.isEmpty && !router.contains(people) && !router.contains(fallback))
        router.send(Scroll.didScroll, 1)
        #expect(router.send(Scroll.heightForHeader, 1) == nil)
        #expect(log.events.isEmpty)
        #expect(router.target(for: .people) == nil && router.defaultTarget == nil)
    }
}
