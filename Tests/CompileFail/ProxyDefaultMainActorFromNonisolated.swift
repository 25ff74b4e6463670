// A proxy generated in a module with default main-actor isolation (DefaultMainActorFixture) is
// main-actor isolated like the rest of that module: nonisolated code cannot call it.
import DefaultMainActorFixture

nonisolated func showNext(_ proxy: GalleryDelegateProxy) {
    proxy.gallery(didShow: 1)
}
// expect-error: call to main actor-isolated instance method 'gallery(didShow:)' in a synchronous nonisolated context
