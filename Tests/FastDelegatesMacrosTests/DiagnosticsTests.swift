#if Macros
import Testing

/// Every shape `@DelegateProxy` cannot forward is one error on the offending declaration, and
/// nothing is generated (so no wall of type errors follows).
@Suite("@DelegateProxy diagnostics")
struct DiagnosticsTests {
    /// A shape, the requirement that has it (its line holds `marker`), and the error there.
    struct Case: CustomTestStringConvertible, Sendable {
        let shape: String
        let requirement: String
        let marker: String
        let message: String
        var testDescription: String { shape }
    }

    static let cases: [Case] = [
        Case(
            shape: "generic method", requirement: "func value<T>(_ input: T) -> T?", marker: "value<T>",
            message:
                "@DelegateProxy cannot forward a generic method: a message has one input and one output type; use concrete types (or 'any P')"
        ),
        Case(
            shape: "generic where clause", requirement: "func value() -> Int? where Self: Sendable", marker: "where",
            message:
                "@DelegateProxy cannot forward a generic method: a message has one input and one output type; use concrete types (or 'any P')"
        ),
        Case(
            shape: "rethrows", requirement: "func load(_ body: @escaping () throws -> Void) rethrows",
            marker: "rethrows",
            message:
                "@DelegateProxy cannot forward a 'rethrows' method: whether it throws depends on a closure argument the proxy only passes on; declare it 'throws'"
        ),
        Case(
            shape: "async with a completion handler",
            requirement: "func load(completionHandler: @escaping () -> Void) async", marker: "async",
            message:
                "@DelegateProxy cannot forward an 'async' or throwing method that also takes a completion handler: the proxy would answer its caller twice (through the handler and on return); declare the completion-handler form synchronous, and the 'async' form, which returns the answer, as another requirement"
        ),
        Case(
            shape: "property", requirement: "var title: String { get }", marker: "var title",
            message:
                "@DelegateProxy forwards methods only: make this property a method (for example 'func value() -> T'), or move it to another protocol"
        ),
        Case(
            shape: "subscript", requirement: "subscript(index: Int) -> Int { get }", marker: "subscript",
            message:
                "@DelegateProxy forwards methods only: make this subscript a method, or move it to another protocol"),
        Case(
            shape: "static requirement", requirement: "static func make()", marker: "static",
            message:
                "@DelegateProxy cannot forward a static requirement: listeners are instances; make it an instance method, or move it to another protocol"
        ),
        Case(
            shape: "initializer", requirement: "init(name: String)", marker: "init(",
            message: "@DelegateProxy cannot forward an initializer: a listener already exists when it joins"),
        Case(
            shape: "associated type", requirement: "associatedtype Item", marker: "associatedtype",
            message:
                "@DelegateProxy cannot forward a protocol with an associated type: one proxy must serve every conformer; use a concrete type (or 'any P') instead"
        ),
        Case(
            shape: "sending", requirement: "func take(_ value: sending Payload)", marker: "sending",
            message:
                "@DelegateProxy cannot forward the 'sending' parameter 'value': one value cannot go to several listeners; remove 'sending' (or pass a copy the listeners may share)"
        ),
        Case(
            shape: "variadic", requirement: "func select(_ rows: Int...)", marker: "Int...",
            message: "@DelegateProxy cannot forward the variadic parameter 'rows': take an array instead"),
        Case(
            shape: "some parameter", requirement: "func show(_ view: some Sendable)", marker: "some Sendable",
            message:
                "@DelegateProxy cannot forward the opaque parameter 'view': a message has one input type; use 'any' instead of 'some'"
        ),
        Case(
            shape: "non-escaping closure", requirement: "func animate(_ body: () -> Void)", marker: "body:",
            message:
                "@DelegateProxy cannot forward the non-escaping closure 'body': the proxy passes it on as a message input; mark it '@escaping'"
        ),
        Case(
            shape: "non-escaping attributed closure", requirement: "func animate(_ body: @Sendable () -> Void)",
            marker: "body:",
            message:
                "@DelegateProxy cannot forward the non-escaping closure 'body': the proxy passes it on as a message input; mark it '@escaping'"
        ),
        Case(
            shape: "Self in the signature", requirement: "func same(as other: Self) -> Bool?", marker: "Self",
            message:
                "@DelegateProxy cannot forward a method whose signature uses 'Self': the proxy answers for every conformer"
        ),
        Case(
            shape: "non-Optional answer without a default", requirement: "func shouldScroll(toTop: Bool) -> Bool",
            marker: "shouldScroll",
            message:
                "'shouldScroll(toTop:)' returns 'Bool', which the proxy must answer when no listener responds: add @DelegateDefault(value), or @DelegateCombining(combination), or return an Optional "
                + "(an Optional spelled through a type alias: add @DelegateDefault(nil))"
        ),
        Case(
            shape: "default on a void method", requirement: "@DelegateDefault(1) func refresh()",
            marker: "@DelegateDefault",
            message:
                "@DelegateDefault has no effect on a method that returns nothing and takes no completion handler: remove it"
        ),
        Case(
            shape: "combining on a void method", requirement: "@DelegateCombining(.allTrue) func refresh()",
            marker: "@DelegateCombining",
            message: "@DelegateCombining has no effect on a method that returns nothing: remove it"),
        Case(
            shape: "default and combining",
            requirement: "@DelegateDefault(true) @DelegateCombining(.allTrue) func ok() -> Bool",
            marker: "func ok",
            message:
                "@DelegateDefault and @DelegateCombining both say what to answer: keep one (a combination's initial value is its answer when no listener responds)"
        ),
        Case(
            shape: "default parameter that is not a parameter",
            requirement: "@DelegateDefault(parameter: \"index\") func willSelect(row: Int) -> Int?",
            marker: "@DelegateDefault",
            message:
                "@DelegateDefault(parameter:) names 'index', which is not a parameter of this method (its parameters: row)"
        ),
        Case(
            shape: "completion handler with a non-Optional argument and no default",
            requirement: "func decide(for url: String, decisionHandler: @escaping (Int) -> Void)",
            marker: "func decide",
            message:
                "'decide(for:decisionHandler:)' takes a completion handler that the proxy must call with '(Int)' when no listener implements it: add @DelegateDefault(value) (a tuple for several arguments), or @DelegateDefault(parameter: \"name\") to pass one of the method's parameters"
        ),
        Case(
            shape: "completion handler marker on a method without a closure last",
            requirement: "@DelegateCompletionHandler func decide(for url: String)",
            marker: "func decide",
            message:
                "@DelegateCompletionHandler marks the last parameter as the completion handler, but it is not an '@escaping' closure that returns nothing: mark it '@escaping', or remove @DelegateCompletionHandler"
        ),
        Case(
            shape: "computed default that is no expression",
            requirement: "@DelegateDefault(expression: \"name +\") func title(for name: String) -> String",
            marker: "@DelegateDefault",
            message:
                "@DelegateDefault(expression:) holds 'name +', which is not one Swift expression: write an expression of the method's parameters, such as \"String(name.prefix(1))\""
        ),
        Case(
            shape: "computed default that is no string literal",
            requirement: "@DelegateDefault(expression: text) func title(for name: String) -> String",
            marker: "@DelegateDefault",
            message:
                "@DelegateDefault(expression:) takes the expression as a string literal, type-checked in the method: write @DelegateDefault(expression: \"String(name.prefix(1))\")"
        ),
    ]

    @Test("One error on the requirement, nothing generated", arguments: cases)
    func unsupportedShape(_ shape: Case) {
        assertRejected(
            """
            @DelegateProxy
            protocol Feed: AnyObject {
                func refresh(_ page: Int)
                \(shape.requirement)
            }
            """, [(shape.marker, shape.message)])
    }

    @Test("A nonisolated requirement of a @MainActor protocol")
    func nonisolatedInMainActorProtocol() {
        assertRejected(
            """
            @DelegateProxy
            @MainActor protocol Feed: AnyObject {
                func refresh()
                nonisolated func identifier() -> Int?
            }
            """,
            [
                (
                    "nonisolated",
                    "@DelegateProxy cannot forward a nonisolated requirement of a @MainActor protocol: its proxy "
                        + "sends on the main actor; remove 'nonisolated', or move it to a nonisolated protocol"
                )
            ])
    }

    @Test("A composition: its parts count as parents, AnyObject & Sendable is accepted")
    func composition() {
        assertRejected(
            """
            @DelegateProxy
            protocol Feed: AnyObject & Equatable {
                func refresh()
            }
            """,
            [
                (
                    "Equatable",
                    "@DelegateProxy forwards the requirements of parents that are @DelegateProxy protocols themselves, "
                        + "and 'Equatable' cannot be: inherit only from AnyObject, Sendable and @DelegateProxy protocols"
                )
            ])
        let (expanded, diagnostics) = expand(
            "@DelegateProxy\nprotocol Feed: AnyObject & Sendable {\n    func refresh()\n}")
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("let chain: FastDelegates.ConcurrentDelegateChain"))
    }

    @Test("Overloads that differ only in the return type: an error on the second")
    func overloadByReturnType() {
        assertRejected(
            """
            @DelegateProxy
            protocol Feed: AnyObject {
                func offset(at row: Int) -> Double?
                func offset(at row: Int) -> Int? // second
            }
            """,
            [
                (
                    "// second",
                    "@DelegateProxy needs distinct requirements: another requirement is also 'offset(at:)' with the same parameter types; give one of them other argument labels or parameter types"
                )
            ])
    }

    @Test(
        "A parent that no @DelegateProxy protocol can refine: one error on it, naming the fix",
        arguments: ["Hashable", "NSObjectProtocol", "Identifiable"])
    func unproxiedParent(parent: String) {
        assertRejected(
            """
            @DelegateProxy
            protocol Feed: \(parent) {
                func refresh()
            }
            """,
            [
                (
                    "protocol Feed",
                    "@DelegateProxy forwards the requirements of parents that are @DelegateProxy protocols themselves, "
                        + "and '\(parent)' cannot be: inherit only from AnyObject, Sendable and @DelegateProxy protocols"
                )
            ])
    }

    @Test("A protocol that refines another is class-bound: no error, whatever else it inherits")
    func refiningIsClassBound() {
        let (expanded, diagnostics) = expand(
            "@DelegateProxy\nprotocol Feed: ScrollDelegate, Sendable {\n    func refresh()\n}")
        #expect(diagnostics.isEmpty)
        #expect(expanded.contains("final class FeedProxy: Feed, FastDelegates.ConcurrentDelegateForwarding {"))
    }

    @Test("A protocol that is not class-bound")
    func notClassBound() {
        assertRejected(
            """
            @DelegateProxy
            protocol Feed {
                func refresh()
            }
            """,
            [
                (
                    "protocol Feed",
                    "@DelegateProxy needs a class-bound protocol, as a host's 'weak var delegate' does: declare 'protocol Feed: AnyObject'"
                )
            ])
    }

    @Test("Not a protocol")
    func notAProtocol() {
        assertRejected(
            """
            @DelegateProxy
            final class Feed {}
            """,
            [
                (
                    "@DelegateProxy",
                    "@DelegateProxy applies to a protocol: declare the delegate protocol and put the attribute on it"
                )
            ])
    }

    @Test("Several problems: each reported where it is, in source order")
    func severalProblems() {
        assertRejected(
            """
            @DelegateProxy
            protocol Feed: AnyObject {
                func load() rethrows // one
                var title: String { get } // two
                func ok() -> Bool // three
            }
            """,
            [
                (
                    "// one",
                    "@DelegateProxy cannot forward a 'rethrows' method: whether it throws depends on a closure argument the proxy only passes on; declare it 'throws'"
                ),
                (
                    "// two",
                    "@DelegateProxy forwards methods only: make this property a method (for example 'func value() -> T'), or move it to another protocol"
                ),
                (
                    "// three",
                    "'ok()' returns 'Bool', which the proxy must answer when no listener responds: add @DelegateDefault(value), or @DelegateCombining(combination), or return an Optional "
                        + "(an Optional spelled through a type alias: add @DelegateDefault(nil))"
                ),
            ])
    }
}
#endif
