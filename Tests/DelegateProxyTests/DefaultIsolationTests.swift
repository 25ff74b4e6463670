#if Macros
import DefaultMainActorFixture
import FastDelegates
import Testing

/// A protocol declared in a module with default main-actor isolation, used as its app would.
@MainActor
@Suite("@DelegateProxy in a module with default main-actor isolation")
struct DefaultIsolationTests {
    @Test("The proxy is main-actor isolated like its module, and forwards to implementing listeners")
    func mainActorByDefault() {
        let gallery = Gallery(count: 2)
        let proxy = GalleryDelegateProxy()
        gallery.delegate = proxy
        let counter = ShownCounter(), noWrap = NoWrap()
        proxy.add(counter)
        gallery.next()
        gallery.next()
        #expect(counter.shown == [1, 0]) // nobody refuses: the default wraps around
        proxy.add(noWrap)
        gallery.next()
        gallery.next()
        #expect(counter.shown == [1, 0, 1, 1]) // the one listener that implements it refuses
        // Main-actor isolated: a main-actor test calls it synchronously, with no await.
        let isolated: @MainActor () -> Bool = { proxy.galleryShouldWrap() }
        #expect(!isolated())
    }
}
#endif
