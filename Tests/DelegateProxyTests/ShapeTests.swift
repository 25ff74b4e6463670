// swift-format-ignore-file: FileScopedDeclarationPrivacy
// (a fileprivate protocol is a shape under test)
#if Macros
import FastDelegates
import Testing

// Shapes found in Apple's delegate protocols, each forwarded by a generated proxy.

final class WebView {}
final class NavigationAction {}
final class NavigationResponse {}
final class Navigation {}

/// WebKit's overloads by type (`webView(_:decidePolicyFor:decisionHandler:)` for an action and
/// for a response) and its implicitly unwrapped `WKNavigation!`.
@DelegateProxy
protocol NavigationDelegate: AnyObject {
    @DelegateDefault(true)
    func webView(
        _ webView: WebView, decidePolicyFor action: NavigationAction, decisionHandler: @escaping (Bool) -> Void)
    @DelegateDefault(true)
    func webView(
        _ webView: WebView, decidePolicyFor response: NavigationResponse, decisionHandler: @escaping (Bool) -> Void)
    func webView(_ webView: WebView, didFinish navigation: Navigation!)
    func currentNavigation() -> Navigation!
}

final class NavigationListener: NavigationDelegate {
    var events: [String] = []
    let navigation = Navigation()
    func webView(
        _ webView: WebView, decidePolicyFor action: NavigationAction, decisionHandler: @escaping (Bool) -> Void
    ) {
        events.append("action")
        decisionHandler(true)
    }
    func webView(
        _ webView: WebView, decidePolicyFor response: NavigationResponse, decisionHandler: @escaping (Bool) -> Void
    ) {
        events.append("response")
        decisionHandler(false)
    }
    func webView(_ webView: WebView, didFinish navigation: Navigation!) {
        events.append(navigation == nil ? "finish nil" : "finish")
    }
    func currentNavigation() -> Navigation! { navigation }
}

struct Payload: Equatable {
    var bytes: [UInt8]
}

/// `borrowing` and `consuming` parameters: each listener gets a copy.
@DelegateProxy
protocol PayloadDelegate: AnyObject {
    func inspect(_ payload: borrowing Payload)
    func take(_ payload: consuming Payload, tag: Int)
}

final class PayloadListener: PayloadDelegate {
    var seen: [Payload] = []
    func inspect(_ payload: borrowing Payload) { seen.append(copy payload) }
    func take(_ payload: consuming Payload, tag: Int) {
        payload.bytes.append(UInt8(tag))
        seen.append(payload)
    }
}

/// `inout` parameters, as `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`
/// moves its target: each listener sees the previous one's write, the caller the last.
@DelegateProxy
protocol DragDelegate: AnyObject {
    func willEndDragging(velocity: Double, targetOffset: inout Double)
    @DelegateDefault(0) func clamp(_ value: inout Int, limit: Int) -> Int
}

final class DragListener: DragDelegate {
    let shift: Double
    var seen: [Double] = []
    init(shift: Double) { self.shift = shift }
    func willEndDragging(velocity: Double, targetOffset: inout Double) {
        seen.append(targetOffset)
        targetOffset += shift
    }
    func clamp(_ value: inout Int, limit: Int) -> Int {
        value = min(value, limit)
        return value
    }
}

/// Deprecated requirements: the generated code compiles without a warning.
@DelegateProxy
protocol LegacyDelegate: AnyObject {
    @available(*, deprecated, message: "use didLoad(_:)")
    func didLoadOld()
    func didLoad(_ page: Int)
}

final class LegacyListener: LegacyDelegate {
    var events: [String] = []
    func didLoadOld() { events.append("old") }
    func didLoad(_ page: Int) { events.append("load \(page)") }
}

/// `private` and `fileprivate` protocols at file scope.
@DelegateProxy
private protocol HiddenDelegate: AnyObject {
    func ping() -> Int?
}

@DelegateProxy
fileprivate protocol FilePrivateDelegate: AnyObject {
    func pong(_ value: Int)
}

private final class HiddenListener: HiddenDelegate, FilePrivateDelegate {
    var pongs: [Int] = []
    func ping() -> Int? { 1 }
    func pong(_ value: Int) { pongs.append(value) }
}

/// A class-constrained protocol: its proxy subclasses the class.
class Responder {
    var nextTag = 0
    init() {}
}

@DelegateProxy
protocol ResponderDelegate: AnyObject where Self: Responder {
    func becameFirst(_ tag: Int)
}

final class ResponderListener: Responder, ResponderDelegate {
    var tags: [Int] = []
    func becameFirst(_ tag: Int) { tags.append(tag) }
}

/// Requirements named like the proxy's own members.
@DelegateProxy
protocol CollectionEditingDelegate: AnyObject {
    func chain()
    func add(_ item: Int)
    func remove(_ item: Int) -> Bool?
}

final class EditingListener: CollectionEditingDelegate {
    var events: [String] = []
    func chain() { events.append("chain") }
    func add(_ item: Int) { events.append("add \(item)") }
    func remove(_ item: Int) -> Bool? {
        events.append("remove \(item)")
        return true
    }
}

/// Every combination the docs list for proxies, on a requirement of the matching type.
@DelegateProxy
protocol MenuDelegate: AnyObject {
    @DelegateCombining(.all) func menuItems() -> [String]
    @DelegateCombining(.first) func menuTitle() -> String?
    @DelegateCombining(.allTrue) func menuCanOpen() -> Bool
    @DelegateCombining(.anyTrue) func menuWantsBadge() -> Bool
    @DelegateCombining(.reduce(0, +)) func menuBadgeCount() -> Int
}

final class MenuListener: MenuDelegate {
    let items: [String]
    let title: String?
    let canOpen: Bool
    init(_ items: [String], title: String?, canOpen: Bool) {
        self.items = items
        self.title = title
        self.canOpen = canOpen
    }
    func menuItems() -> [String] { items }
    func menuTitle() -> String? { title }
    func menuCanOpen() -> Bool { canOpen }
    func menuWantsBadge() -> Bool { !items.isEmpty }
    func menuBadgeCount() -> Int { items.count }
}

@Suite("@DelegateProxy shapes from Apple's delegate protocols")
struct ShapeTests {
    @Test("Overloads by type: distinct messages, each reaching its own method")
    func overloadsByType() {
        let proxy = NavigationDelegateProxy()
        let listener = NavigationListener()
        proxy.add(listener)
        var decisions: [Bool] = []
        proxy.webView(WebView(), decidePolicyFor: NavigationAction()) { decisions.append($0) }
        proxy.webView(WebView(), decidePolicyFor: NavigationResponse()) { decisions.append($0) }
        #expect(listener.events == ["action", "response"])
        #expect(decisions == [true, false])
        let action = NavigationDelegateMessages.webViewDecidePolicyForDecisionHandler_NavigationAction
        let response = NavigationDelegateMessages.webViewDecidePolicyForDecisionHandler_NavigationResponse
        #expect(action.name != response.name)
        #expect(action.name.contains("NavigationAction") && response.name.contains("NavigationResponse"))
    }

    @Test("Implicitly unwrapped parameters and answers: carried as Optionals")
    func implicitlyUnwrapped() {
        let proxy = NavigationDelegateProxy()
        #expect(proxy.currentNavigation() == nil)
        let listener = NavigationListener()
        proxy.add(listener)
        proxy.webView(WebView(), didFinish: Navigation())
        proxy.webView(WebView(), didFinish: nil)
        #expect(listener.events == ["finish", "finish nil"])
        #expect(proxy.currentNavigation() === listener.navigation)
        let message: Message<(WebView, Navigation?), Void> = NavigationDelegateMessages.webViewDidFinish
        #expect(message.name.hasSuffix("webView(_:didFinish:)"))
    }

    @Test("borrowing and consuming parameters: every listener gets the value")
    func ownership() {
        let proxy = PayloadDelegateProxy()
        let first = PayloadListener()
        let second = PayloadListener()
        proxy.add(first)
        proxy.add(second)
        let payload = Payload(bytes: [1])
        proxy.inspect(payload)
        proxy.take(payload, tag: 2)
        #expect(first.seen == [Payload(bytes: [1]), Payload(bytes: [1, 2])])
        #expect(second.seen == first.seen)
        #expect(payload == Payload(bytes: [1]))
    }

    @Test("inout: each listener sees the previous write, the caller the last")
    func inoutArguments() {
        let proxy = DragDelegateProxy()
        let first = DragListener(shift: 10)
        let second = DragListener(shift: 5)
        proxy.add(first)
        proxy.add(second)
        var target = 100.0
        proxy.willEndDragging(velocity: 1, targetOffset: &target)
        #expect(first.seen == [100])
        #expect(second.seen == [110])
        #expect(target == 115)
        var value = 50
        #expect(proxy.clamp(&value, limit: 20) == 20)
        #expect(value == 20)
        let empty = DragDelegateProxy()
        var untouched = 7.0
        empty.willEndDragging(velocity: 0, targetOffset: &untouched)
        #expect(untouched == 7)
    }

    @Test("A deprecated requirement is forwarded")
    @available(*, deprecated, message: "calls a deprecated requirement")
    func deprecated() {
        let proxy = LegacyDelegateProxy()
        let listener = LegacyListener()
        proxy.add(listener)
        proxy.didLoadOld()
        proxy.didLoad(2)
        #expect(listener.events == ["old", "load 2"])
    }

    @Test("private and fileprivate protocols")
    func privateProtocols() {
        let hidden = HiddenDelegateProxy()
        let filePrivate = FilePrivateDelegateProxy()
        let listener = HiddenListener()
        hidden.add(listener)
        filePrivate.add(listener)
        #expect(hidden.ping() == 1)
        filePrivate.pong(3)
        #expect(listener.pongs == [3])
    }

    @Test("where Self: Base: the proxy is a Base")
    func classConstrained() {
        let proxy = ResponderDelegateProxy()
        let base: Responder = proxy
        base.nextTag = 4
        let listener = ResponderListener()
        proxy.add(listener)
        proxy.becameFirst(base.nextTag)
        #expect(listener.tags == [4])
    }

    @Test("Requirements named chain(), add(_:), remove(_:): the proxy renames its chain only")
    func namesLikeProxyMembers() {
        let proxy = CollectionEditingDelegateProxy()
        let listener = EditingListener()
        proxy.add(listener)
        proxy.chain()
        proxy.add(3)
        #expect(proxy.remove(3) == true)
        #expect(listener.events == ["chain", "add 3", "remove 3"])
        #expect(proxy.forwardingChain.count == 1)
        #expect(proxy.remove(listener))
    }

    @Test("Combinations: .all joins arrays in order, .first, .allTrue, .anyTrue, .reduce")
    func combinations() {
        let proxy = MenuDelegateProxy()
        #expect(proxy.menuItems().isEmpty)
        #expect(proxy.menuTitle() == nil)
        #expect(proxy.menuCanOpen())
        #expect(!proxy.menuWantsBadge())
        #expect(proxy.menuBadgeCount() == 0)
        let first = MenuListener(["a", "b"], title: nil, canOpen: true)
        let second = MenuListener(["c"], title: "second", canOpen: false)
        proxy.add(first)
        proxy.add(second)
        #expect(proxy.menuItems() == ["a", "b", "c"])
        #expect(proxy.menuTitle() == nil) // the first listener's answer, nil included
        #expect(!proxy.menuCanOpen())
        #expect(proxy.menuWantsBadge())
        #expect(proxy.menuBadgeCount() == 3)
    }
}
#endif
