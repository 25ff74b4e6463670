// The proxy of a @MainActor protocol is @MainActor: nonisolated code cannot call it.
import FastDelegates

@DelegateProxy
@MainActor protocol ScrollDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
}

nonisolated func scroll(_ proxy: ScrollDelegateProxy) {
    proxy.scrollViewDidScroll(1)
}
// expect-error: call to main actor-isolated instance method 'scrollViewDidScroll' in a synchronous nonisolated context
