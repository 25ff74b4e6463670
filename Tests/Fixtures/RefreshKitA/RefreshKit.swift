#if Macros
import CompositionViews
import FastDelegates

/// Library A's refresh delegate. Library B declares a protocol with the same name, the same
/// requirements and the same types, unaware of this one: both work in one app (used by the
/// composition tests; not a product).
@DelegateProxy
@MainActor public protocol RefreshDelegate: AnyObject {
    func refresh() async
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func title(for scrollView: ScrollView) -> String?
    @DelegateDefault(-1) func rowCount(in scrollView: ScrollView) -> Int
}

/// Library A's pull-to-refresh control: it owns a proxy in its delegate slot, and hands the proxy
/// out so that an app can add it as a listener of the app's own proxy.
@MainActor public final class RefreshControl {
    /// The listeners of this control: the delegate slot holds it weakly, the control owns it.
    public let listeners = RefreshDelegateProxy()
    /// The control's delegate slot, as a framework declares one.
    public weak var delegate: (any RefreshDelegate)?
    /// The view it scrolls.
    public let view: ScrollView

    /// A control over `view` whose delegate is its own proxy.
    public init(view: ScrollView) {
        self.view = view
        delegate = listeners
    }

    /// Scrolls to `offset`, telling the delegate.
    public func scroll(to offset: Double) {
        view.offset = offset
        delegate?.scrollViewDidScroll(view)
    }

    /// Pulls to refresh: awaits the delegate.
    public func pull() async { await delegate?.refresh() }

    /// The title the delegate gives the view, if any.
    public func title() -> String? { delegate?.title(for: view) ?? nil }

    /// The rows the delegate counts.
    public func rowCount() -> Int { delegate?.rowCount(in: view) ?? -1 }
}
#endif
