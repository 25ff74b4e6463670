#if Macros
import Testing

/// What `@DelegateProxy` generates for the shapes of Apple's delegate protocols and for protocols
/// that refine other `@DelegateProxy` protocols.
@Suite("@DelegateProxy shapes and inheritance")
struct ShapeGenerationTests {
    @Test("A child merges its parents' responses, forwards through DelegateForwarding, and extends itself")
    func inheritance() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            @MainActor public protocol TableDelegate: ProxyFixture.FeedScrollDelegate, ColumnDelegate {
                func didSelect(_ row: Int)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "public final class TableDelegateProxy: TableDelegate, FastDelegates.MainActorDelegateForwarding {"))
        #expect(
            expanded.contains("@MainActor public static var tableDelegateResponses: FastDelegates.Responses<Self> {"))
        #expect(
            expanded.contains(
                "Self.feedScrollDelegateResponses.merging(Self.columnDelegateResponses).merging(FastDelegates.Responses<Self>()"
            ))
        #expect(expanded.contains("FastDelegates.AnyResponder(self, responses: Self.tableDelegateResponses)"))
        #expect(expanded.contains("extension TableDelegate where Self: FastDelegates.MainActorDelegateForwarding {"))
        #expect(
            expanded.contains(
                "@MainActor public func add(_ listener: any TableDelegate, retention: FastDelegates.Retention = .weak)")
        )
        #expect(
            expanded.contains(
                "self.forwardingResponders.shared(listener.tableDelegateResponder)"))
        #expect(expanded.contains("self.forwardingChain.send(requirement: TableDelegateMessages.didSelect, row)"))
        // The proxy's own requirement keeps its prepared message.
        #expect(expanded.contains("self.chain.send(self._didSelectMessage, row)"))
        #expect(expanded.contains("public var forwardingChain: FastDelegates.DelegateChain {"))
    }

    @Test("Overloads by type: typed message names, member names with the types that differ")
    func overloadsByType() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Navigation: AnyObject {
                @DelegateDefault(true)
                func webView(_ webView: WebView, decidePolicyFor action: Action, decisionHandler: @escaping (Bool) -> Void)
                @DelegateDefault(true)
                func webView(_ webView: WebView, decidePolicyFor response: Response, decisionHandler: @escaping (Bool) -> Void)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "static let webViewDecidePolicyForDecisionHandler_Action = FastDelegates.Message<(WebView, Action, (Bool) -> Void), Void>(\"Navigation.webView(_: WebView, decidePolicyFor: Action, decisionHandler: (Bool) -> Void)\")"
            ))
        #expect(expanded.contains("static let webViewDecidePolicyForDecisionHandler_Response ="))
    }

    @Test("T! parameters and answers: T? in the message, the signature as declared")
    func implicitlyUnwrapped() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Navigation: AnyObject {
                func webView(_ webView: WebView!, didFinish navigation: WKNavigation!) -> WKNavigation!
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("FastDelegates.Message<(WebView?, WKNavigation?), WKNavigation?>"))
        #expect(
            expanded.contains(
                "func webView(_ webView: WebView!, didFinish navigation: WKNavigation!) -> WKNavigation! {"))
    }

    @Test("borrowing, consuming and inout parameters: copied, boxed and written back")
    func conventions() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Drag: AnyObject {
                func end(_ item: borrowing Item, tag: consuming Tag, target: inout Point)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("FastDelegates.Message<(Item, Tag, FastDelegates.InoutArgument<Point>), Void>"))
        #expect(expanded.contains("func end(_ item: borrowing Item, tag: consuming Tag, target: inout Point) {"))
        #expect(expanded.contains("let _targetArgument = FastDelegates.InoutArgument(target)"))
        #expect(expanded.contains("self.chain.send(self._endTagTargetMessage, (copy item, copy tag, _targetArgument))"))
        #expect(expanded.contains("target = _targetArgument.value"))
        #expect(expanded.contains("me.end(input.0, tag: input.1, target: &input.2.value)"))
    }

    @Test("A deprecated requirement: its handler is built in a deprecated witness, called through a requirement")
    func deprecated() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Legacy: AnyObject {
                @available(*, deprecated, message: "use load")
                func old()
                func load()
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("enum DeprecatedHandlers: DeprecatedCalls {"))
        #expect(
            expanded.contains(
                "LegacyMessages.addingDeprecated(LegacyMessages.DeprecatedHandlers.self, to: FastDelegates.Responses<Self>()"
            ))
        #expect(expanded.contains("@available(*, deprecated, message: \"use load\")\n    func old() {"))
    }

    @Test("private at file scope: fileprivate, so the generated declarations see each other")
    func privateProtocol() {
        let (expanded, _) = expand("@DelegateProxy\nprivate protocol Feed: AnyObject {\n    func refresh()\n}")
        #expect(expanded.contains("fileprivate static let refresh"))
        #expect(expanded.contains("fileprivate func refresh()"))
        #expect(!expanded.contains(" private static"))
    }

    @Test("where Self: Base: the proxy subclasses Base and calls its init()")
    func classConstrained() {
        let (expanded, diagnostics) = expand(
            "@DelegateProxy\nprotocol Feed where Self: FeedView {\n    func refresh()\n}")
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("final class FeedProxy: FeedView, Feed, FastDelegates.DelegateForwarding {"))
        #expect(expanded.contains("chain = FastDelegates.DelegateChain(mode: mode)\n        super.init()"))
    }

    @Test("A requirement chain(): the proxy's chain is forwardingChain; add(_:) and remove(_:) are overloads")
    func memberNames() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Editing: AnyObject {
                func chain()
                func add(_ item: Int)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("let forwardingChain: FastDelegates.DelegateChain\n"))
        #expect(!expanded.contains("let chain:"))
        #expect(expanded.contains("self.forwardingChain.send(self._chainMessage, ())"))
    }
}
#endif
