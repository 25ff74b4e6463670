#if Macros
import Testing

/// The rules of the generated code, one at a time: isolation, access, nesting, names, inputs.
@Suite("@DelegateProxy generation rules")
struct GenerationRulesTests {
    @Test("A Sendable protocol gets a Sendable proxy over ConcurrentDelegateChain, and @Sendable responses")
    func sendableProtocol() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            public protocol TickListener: AnyObject, Sendable {
                func tick(_ value: Int)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "public final class TickListenerProxy: TickListener, FastDelegates.ConcurrentDelegateForwarding {"))
        #expect(!expanded.contains("@MainActor"))
        #expect(expanded.contains("public let chain: FastDelegates.ConcurrentDelegateChain"))
        #expect(expanded.contains("public init(mode: FastDelegates.ConcurrentDelegateChain.Mode = .nonBreaking)"))
        // Listeners' handlers shared for the process: the proxy keeps no cache of its own.
        #expect(!expanded.contains("_responders"))
        #expect(
            expanded.contains(
                "FastDelegates.SendableResponderCache.responder(of: listener, answering: TickListenerMessages.self, {"))
        // Whether a listener is a proxy to nest is asked once per class (generated-file format 3).
        #expect(expanded.contains("($0 as? any FastDelegates.ConcurrentDelegateForwarding)?.forwardingChain\n"))
        #expect(expanded.contains("return chain.add(responder, nesting: nested, retention: retention)"))
        #expect(expanded.contains("-> FastDelegates.ConcurrentDelegateToken {"))
        #expect(expanded.contains("public var tickListenerResponder: FastDelegates.AnySendableResponder {"))
        #expect(expanded.contains("FastDelegates.SendableResponses<Self>()"))
        // Not prepared: a concurrent chain has no bucket to remember.
        #expect(expanded.contains("private let _tickMessage = TickListenerMessages.tick\n"))
    }

    @Test("A protocol that is neither main-actor nor Sendable gets a nonisolated proxy over DelegateChain")
    func nonisolatedProtocol() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Logger: AnyObject {
                func log(_ line: String)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(!expanded.contains("@MainActor"))
        #expect(expanded.contains("\nfinal class LoggerProxy: Logger, FastDelegates.DelegateForwarding {"))
        #expect(expanded.contains("let chain: FastDelegates.DelegateChain"))
        #expect(expanded.contains("var loggerResponder: FastDelegates.AnyResponder {"))
        #expect(expanded.contains("FastDelegates.Responses<Self>()"))
    }

    @Test(
        "A main-actor protocol that also refines Sendable stays on the main actor",
        arguments: ["MainActor", "_Concurrency.MainActor"])
    func mainActorWins(attribute: String) {
        let (expanded, _) = expand(
            """
            @DelegateProxy
            @\(attribute) protocol Feed: AnyObject, Sendable {
                func refresh()
            }
            """)
        #expect(
            expanded.contains("@MainActor\nfinal class FeedProxy: Feed, FastDelegates.MainActorDelegateForwarding {"))
        #expect(expanded.contains("let chain: FastDelegates.DelegateChain"))
        #expect(expanded.contains("@MainActor var feedResponder: FastDelegates.AnyResponder"))
    }

    @Test(
        "Everything generated takes the protocol's access level",
        arguments: ["public", "package", "internal", "fileprivate", "private"])
    func accessLevel(access: String) {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            \(access) protocol Feed: AnyObject {
                func refresh()
                func title() -> String?
            }
            """)
        #expect(diagnostics.isEmpty)
        for declaration in [
            "enum FeedMessages", "static let refresh", "final class FeedProxy", "let chain:", "init(mode:",
            "func add(", "func remove(", "func refresh()", "func title()", "var feedResponder",
        ] {
            #expect(expanded.contains("\(access) \(declaration)"), "\(declaration) is not \(access)")
        }
    }

    @Test("A protocol nested in a type: the extension names the messages through the outer type")
    func nestedProtocol() {
        let (expanded, diagnostics) = expand(
            """
            struct Feed {
                enum Parts {
                    @DelegateProxy
                    protocol Delegate: AnyObject {
                        func refresh()
                    }
                }
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("extension Feed.Parts.Delegate {"))
        #expect(expanded.contains(".on(requirement: Feed.Parts.DelegateMessages.refresh)"))
        #expect(expanded.contains("declines(Feed.Parts.DelegateMessages.refresh, self)"))
        #expect(expanded.contains("Message<Void, Void>(\"Feed.Parts.Delegate.refresh()\", fileID: "))
        #expect(expanded.contains("        final class DelegateProxy: Delegate, FastDelegates.DelegateForwarding {"))
    }

    @Test("Every library name is qualified with the module")
    func qualifiedNames() {
        let (expanded, _) = expand(
            """
            @DelegateProxy
            @MainActor protocol Feed: AnyObject {
                func refresh(_ page: Int)
                @DelegateDefault(1) func pages() -> Int
            }
            """)
        for name in ["Message", "DelegateChain", "DelegateToken", "Retention", "AnyResponder", "Responses"] {
            let unqualified = wordUses(of: name, in: expanded).filter { !$0.hasSuffix("FastDelegates.") }
            #expect(unqualified.isEmpty, "\(name) unqualified after: \(unqualified)")
            #expect(!wordUses(of: name, in: expanded).isEmpty)
        }
    }

    /// What precedes each use of `word` as a whole identifier (not inside `FeedMessages`).
    private func wordUses(of word: String, in text: String) -> [Substring] {
        func isIdentifier(_ character: Character?) -> Bool {
            character.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
        }
        return text.ranges(of: word).compactMap { range -> Substring? in
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            guard !isIdentifier(before), !isIdentifier(after) else { return nil }
            let start = text.index(range.lowerBound, offsetBy: -14, limitedBy: text.startIndex) ?? text.startIndex
            return text[start..<range.lowerBound]
        }
    }

    @Test("Overloads that differ by labels get distinct messages and member names")
    func overloadsByLabels() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol TableDelegate: AnyObject {
                func tableView(_ table: Int, didSelectRowAt row: Int)
                func tableView(_ table: Int, didDeselectRowAt row: Int)
                func reload()
                func reload(_ section: Int)
                func reload(section: Int)
            }
            """)
        #expect(diagnostics.isEmpty)
        for (member, input, name) in [
            ("tableViewDidSelectRowAt", "(Int, Int)", "tableView(_:didSelectRowAt:)"),
            ("tableViewDidDeselectRowAt", "(Int, Int)", "tableView(_:didDeselectRowAt:)"),
            ("reload", "Void", "reload()"),
            ("reload_", "Int", "reload(_:)"),
            ("reloadSection", "Int", "reload(section:)"),
        ] {
            #expect(
                expanded.contains(
                    "static let \(member) = FastDelegates.Message<\(input), Void>(\"TableDelegate.\(name)\", fileID: "))
        }
        #expect(expanded.contains("me.tableView(input.0, didSelectRowAt: input.1)"))
        #expect(expanded.contains("self.chain.send(&self._tableViewDidSelectRowAtMessage, (table, row))"))
    }

    @Test("Escaping closures travel without @escaping; unnamed parameters get names; attributes stay")
    func parameterShapes() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Loader: AnyObject {
                func load(_: String, progress: @escaping @Sendable (Int) -> Void)
                func cancel(handler: (() -> Void)?)
                @discardableResult func `default`(for key: String) -> Int?
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("FastDelegates.Message<(String, @Sendable (Int) -> Void), Void>"))
        #expect(expanded.contains("func load(_ argument0: String, progress: @escaping @Sendable (Int) -> Void) {"))
        #expect(expanded.contains("(argument0, progress))"))
        #expect(expanded.contains("FastDelegates.Message<(() -> Void)?, Void>"))
        #expect(expanded.contains("@discardableResult\n    func `default`(for key: String) -> Int? {"))
        #expect(expanded.contains("static let defaultFor ="))
        #expect(expanded.contains("me.`default`(for: input)"))
    }

    @Test("Answers: Optional needs nothing, @DelegateDefault gives a default, @DelegateCombining combines")
    func answers() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Sizing: AnyObject {
                func title() -> String?
                @DelegateDefault(44.0) func height(forRow row: Int) -> Double
                @DelegateDefault("none") func name() -> String?
                @DelegateCombining(.reduce(0, +)) func badges() -> Int
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "@exclusivity(unchecked) private var _titleMessage = FastDelegates.PreparedRequirement(SizingMessages.title)"
            ))
        #expect(expanded.contains("self.chain.send(&self._titleMessage, ())"))
        #expect(expanded.contains("self.chain.send(&self._heightForRowMessage, row, default: 44.0)"))
        #expect(expanded.contains("self.chain.send(&self._nameMessage, (), default: \"none\")"))
        #expect(expanded.contains("self.chain.send(&self._badgesMessage, (), combining: .reduce(0, +))"))
        // The defaults a listener inherits answer the same.
        #expect(expanded.contains("func height(forRow row: Int) -> Double {"))
        #expect(expanded.contains("declines(SizingMessages.heightForRow, self)\n        return 44.0"))
        #expect(expanded.contains("declines(SizingMessages.title, self)\n        return nil"))
        #expect(
            expanded.contains(
                "let combination: FastDelegates.AnswerCombination<Int, Int> = .reduce(0, +)\n        return combination.initial"
            ))
    }

    @Test("@DelegateDefault(parameter:) answers with that parameter, in the proxy and in the default")
    func parameterDefault() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Table: AnyObject {
                @DelegateDefault(parameter: "indexPath") func tableView(_ tableView: Int, willSelectRowAt indexPath: Int) -> Int?
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("(tableView, indexPath), default: indexPath)"))
        #expect(expanded.contains("declines(TableMessages.tableViewWillSelectRowAt, self)\n        return indexPath"))
    }

    @Test("Completion handlers: sent to the first implementer, or completed once by the proxy and the default")
    func completionHandlers() {
        let (expanded, diagnostics) = expand(
            """
            @DelegateProxy
            protocol Web: AnyObject {
                @DelegateDefault(Policy.allow) func decide(_ url: String, decisionHandler: @escaping (Policy) -> Void)
                @DelegateDefault((Disposition.performDefaultHandling, Credential?.none))
                func challenge(_ host: String, completionHandler: @escaping (Disposition, Credential?) -> Void)
                func prepare(_ url: String, completion: @escaping (String?) -> Void)
                @DelegateCompletionHandler func finish(then done: @escaping () -> Void)
                func observe(_ handler: @escaping (Int) -> Void)
            }
            """)
        #expect(diagnostics.isEmpty)
        #expect(
            expanded.contains(
                "if !self.chain.sendToFirst(&self._decideDecisionHandlerMessage, (url, decisionHandler)) {\n            decisionHandler(Policy.allow)\n        }"
            ))
        #expect(
            expanded.contains(
                "let value: (Disposition, Credential?) = (Disposition.performDefaultHandling, Credential?.none)\n            completionHandler(value.0, value.1)"
            ))
        #expect(expanded.contains("completion(nil)"))
        #expect(expanded.contains("if !self.chain.sendToFirst(&self._finishThenMessage, done) {\n            done()"))
        // The default completes only when no send is asking it (then it declines, not completing).
        #expect(
            expanded.contains(
                "if !FastDelegates.RequirementDefaults.declines(WebMessages.decideDecisionHandler, self) {\n            decisionHandler(Policy.allow)"
            ))
        // A closure with another name and no marker is an ordinary parameter.
        #expect(expanded.contains("self.chain.send(&self._observeMessage, handler)"))
    }

    @Test("The responder is named after the protocol, leading acronyms lowercased")
    func responderNames() {
        for (name, responder) in [
            ("FeedDelegate", "feedDelegateResponder"), ("URLSessionDelegate", "urlSessionDelegateResponder"),
            ("UI", "uiResponder"), ("X", "xResponder"),
        ] {
            let (expanded, _) = expand("@DelegateProxy\nprotocol \(name): AnyObject {}")
            #expect(expanded.contains("var \(responder):"))
        }
    }
}
#endif
