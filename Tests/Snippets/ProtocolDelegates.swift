import FastDelegates

// The conformers and dispatchers of <doc:ProtocolDelegates>.

@MainActor final class Controller: ScrollViewDelegate {
    func scrollViewDidScroll(_ offset: Double) {}
    func scrollViewShouldScrollToTop() -> Bool { true }
}

@MainActor let chain = DelegateChain()
@MainActor let slot = DelegateSlot()
@MainActor let controller = Controller()
@MainActor let analytics = Controller()
@MainActor weak var delegate: (any ScrollViewDelegate)?
