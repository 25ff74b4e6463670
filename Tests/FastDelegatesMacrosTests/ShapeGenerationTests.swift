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
                "FastDelegates.ResponderCache.responder(of: listener, answering: TableDelegateMessages.self, {\n                listener.tableDelegateResponder"
            ))
        #expect(expanded.contains("self.forwardingChain.send(requirement: TableDelegateMessages.didSelect, row)"))
        // The proxy's own requirement keeps its prepared message.
        #expect(expanded.contains("self.chain.send(&self._didSelectMessage, row)"))
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
                "static let webViewDecidePolicyForDecisionHandler_Action = FastDelegates.Message<(WebView, Action, (Bool) -> Void), Void>(\"Navigation.webView(_: WebView, decidePolicyFor: Action, decisionHandler: (Bool) -> Void)\", fileID: \"TestModule/test.swift\", line: 1, column: 1)"
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
        #expect(
            expanded.contains("self.chain.send(&self._endTagTargetMessage, (copy item, copy tag, _targetArgument))"))
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
        #expect(expanded.contains("self.forwardingChain.send(&self._chainMessage, ())"))
    }

    @Test("A restated requirement: the child's default declines every message it witnesses")
    func restatement() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol ChildDelegate: BaseDelegate {
                func answer() -> Int?
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "static let _answerWitnesses: [FastDelegates.Message<Void, Int?>] = [answer] + BaseDelegateMessages._restatedMessages(of: \"answer()\", as: answer)"
            ))
        #expect(
            expanded.contains(
                "FastDelegates.RequirementDefaults.declinesAny(ChildDelegateMessages._answerWitnesses, self)"))
        #expect(expanded.contains("let own: [(selector: String, message: Any)] = [(\"answer()\", answer)]"))
        #expect(
            expanded.contains(
                "return BaseDelegateMessages._restatedMessages(of: selector, as: message) + own.compactMap {"))
    }

    @Test("Shapes behind type aliases: completion handlers by name or marker, Optionals by @DelegateDefault(nil)")
    func aliasedShapes() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol LoaderDelegate: AnyObject {
                func load(_ id: Int, completion: @escaping LoadCompletion)
                @DelegateCompletionHandler @DelegateDefault((false, 1)) func check(_ id: Int, then: @escaping PairCompletion)
                @DelegateDefault(nil) func count() -> MaybeCount
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("if !self.chain.sendToFirst(&self._loadCompletionMessage, (id, completion)) {"))
        #expect(expanded.contains("FastDelegates.CompletionDefault.complete(completion)"))
        #expect(expanded.contains("FastDelegates.CompletionDefault.complete(then, with: (false, 1))"))
        #expect(expanded.contains("self.chain.send(&self._countMessage, (), default: nil)"))
    }

    @Test("async requirements: closures typed as declared; a nonisolated protocol's call runs on no actor")
    func asyncShapes() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol NoteDelegate: AnyObject {
                func present(_ note: Note, at time: Int) async throws(NoteError) -> Int?
            }
            @DelegateProxy
            protocol ArchiveDelegate: NoteDelegate {
                func archive(_ note: Note) async
            }
            @DelegateProxy
            @MainActor protocol PageDelegate: AnyObject {
                func load(_ page: Int) async throws(PageError)
            }
            """)
        #expect(diagnostics.isEmpty)
        // Nonisolated: on no actor in default settings, on the caller's with NonisolatedNonsendingByDefault.
        #expect(expanded.contains("#if hasFeature(NonisolatedNonsendingByDefault)"))
        #expect(
            expanded.contains(
                "return FastDelegates.AsyncCall(me) { (me) async throws(NoteError) -> Int? in"
            ))
        #expect(
            expanded.contains(
                "return FastDelegates.AsyncCall(concurrent: me) { @concurrent (me) async throws(NoteError) -> Int? in"
            ))
        // Inherited isolation: the root's namespace makes the call.
        #expect(
            expanded.contains(
                "return NoteDelegateMessages.ProxyIsolationRoot._asyncCall(me) { (me) async -> Void in"
            ))
        // @MainActor: on the caller's isolation, with no branch.
        #expect(expanded.contains("FastDelegates.AsyncCall(me) { (me) async throws(PageError) -> Void in"))
        #expect(expanded.contains("try await me.load(input)"))
        #expect(expanded.ranges(of: "try await me.present(input.0, at: input.1)").count == 2)
        #expect(expanded.ranges(of: "await me.archive(input)").count == 2)
        #expect(expanded.ranges(of: "#if hasFeature(NonisolatedNonsendingByDefault)").count == 2)
    }

    @Test("A computed default: one function of the parameters, at the attribute's location, called where a default is")
    func computedDefault() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            @MainActor protocol IndexDelegate: AnyObject {
                @DelegateDefault(expression: "String(name.prefix(1))")
                func sectionIndexTitle(forSectionName name: String, at index: inout Int) -> String
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "@MainActor static func _sectionIndexTitleForSectionNameAtDefault(_ name: String, _ index: Int) -> String {"
            ))
        #expect(expanded.contains("#sourceLocation(file: \"test.swift\", line: 3)"))
        #expect(expanded.contains("String(name.prefix(1))"))
        #expect(expanded.contains("#sourceLocation()"))
        #expect(
            expanded.contains(
                "default: IndexDelegateMessages._sectionIndexTitleForSectionNameAtDefault(name, index))"))
        #expect(
            expanded.contains("return IndexDelegateMessages._sectionIndexTitleForSectionNameAtDefault(name, index)"))
    }

    @Test("@DelegateProxy(superclass:): the proxy subclasses the class and calls its init()")
    func superclass() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy(superclass: NSObject.self)
            protocol TransferDelegate: AnyObject, Sendable {
                func didFinish(_ id: Int)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "final class TransferDelegateProxy: NSObject, TransferDelegate, FastDelegates.ConcurrentDelegateForwarding {"
            ))
        #expect(expanded.contains("super.init()"))

        let (rejected, twoClasses) = expand(
            """
            @DelegateProxy(superclass: NSObject.self)
            protocol ViewDelegate where Self: BaseView {
                func didLayout()
            }
            """)
        #expect(
            twoClasses.map(\.message) == [
                "@DelegateProxy(superclass: NSObject.self) and 'where Self: BaseView' both name the proxy's superclass: keep one"
            ])
        #expect(!rejected.contains("extension ViewDelegate"))
    }

    @Test("@DelegateProxy(concurrent: true): a Sendable proxy over ConcurrentDelegateChain taking Sendable listeners")
    func concurrent() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy(concurrent: true)
            protocol FrameDelegate: AnyObject {
                func didUpdate(_ frame: Int)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("enum FrameDelegateMessages: FastDelegates.NonisolatedProxyMessages {"))
        #expect(
            expanded.contains(
                "final class FrameDelegateProxy: FrameDelegate, FastDelegates.ConcurrentDelegateForwarding {"))
        #expect(expanded.contains("let chain: FastDelegates.ConcurrentDelegateChain"))
        #expect(
            expanded.contains(
                "func add<Listener: FrameDelegate & Sendable>(_ listener: Listener, retention: FastDelegates.Retention = .weak) -> FastDelegates.ConcurrentDelegateToken {"
            ))
        #expect(
            expanded.contains(
                "FastDelegates.SendableResponderCache.responder(of: listener, answering: FrameDelegateMessages.self, {\n                listener.frameDelegateSendableResponder"
            ))
        #expect(expanded.contains("extension FrameDelegate where Self: Sendable {"))
        #expect(expanded.contains("static var frameDelegateSendableResponses: FastDelegates.SendableResponses<Self> {"))
        // Conformers that are not Sendable keep their responder for single-thread dispatchers.
        #expect(expanded.contains("var frameDelegateResponder: FastDelegates.AnyResponder {"))

        let (_, onMainActor) = expand(
            """
            @DelegateProxy(concurrent: true)
            @MainActor protocol ViewDelegate: AnyObject {
                func didLayout()
            }
            """)
        #expect(onMainActor.count == 1)
        #expect(
            onMainActor.first?.message.hasPrefix("@DelegateProxy(concurrent: true) is for a protocol that is neither")
                == true)
    }
}
#endif
