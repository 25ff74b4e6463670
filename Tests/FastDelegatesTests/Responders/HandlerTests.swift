import Testing

@testable import FastDelegates

/// A handler's closure becomes its body as is, its target seen as `AnyObject`
/// (`TargetErasedBody`): these calls pass every kind of input and output through such bodies,
/// in the generic code of the library (unspecialized) and specialized in this module, so a
/// body that received its arguments in the wrong registers or by the wrong convention would
/// show here as a wrong value or a crash (and under the sanitizers, as a bad access).
@Suite("Handlers called with their target erased")
struct HandlerTests {
    class Base {
        var calls = 0
        let name: String
        init(_ name: String) { self.name = name }
    }
    final class Derived: Base {}

    struct Large: Equatable {
        var a: Int, b: Int, c: Int, d: Int, e: String
    }

    protocol Named { var label: String { get } }
    struct Label: Named { let label: String }

    enum Payload: Equatable {
        case none
        case text(String)
        case pair(Int, Double)
    }

    static let trivial = Message<Int, Int>("handlerTests.trivial")
    static let floating = Message<Double, Double>("handlerTests.floating")
    static let counted = Message<String, String>("handlerTests.counted")
    static let reference = Message<Base, Base>("handlerTests.reference")
    static let existential = Message<any Named, any Named>("handlerTests.existential")
    static let tuple = Message<(Int, String), (String, Int)>("handlerTests.tuple")
    static let large = Message<Large, Large>("handlerTests.large")
    static let payload = Message<Payload, Payload?>("handlerTests.payload")
    static let none = Message<Void, Void>("handlerTests.none")
    static let closure = Message<@Sendable (Int) -> Int, Int>("handlerTests.closure")

    /// Every message, answered by `Target`'s handlers, which check they got their own target.
    static func responses<Target: Base>(for target: Target) -> Responses<Target> {
        let expected = ObjectIdentifier(target)
        func check(_ me: Target) {
            precondition(ObjectIdentifier(me) == expected, "a handler got another target")
            me.calls += 1
        }
        return Responses<Target>()
            .on(trivial) { me, value in
                check(me)
                return value &* 3
            }
            .on(floating) { me, value in
                check(me)
                return value * 2.5
            }
            .on(counted) { me, value in
                check(me)
                return "\(me.name):\(value)"
            }
            .on(reference) { me, value in
                check(me)
                return value.name == "in" ? me : value
            }
            .on(existential) { me, value in
                check(me)
                return Label(label: value.label + "!")
            }
            .on(tuple) { me, value in
                check(me)
                return (value.1 + me.name, value.0 + 1)
            }
            .on(large) { me, value in
                check(me)
                var copy = value
                copy.e += me.name
                copy.d = value.a + value.b + value.c
                return copy
            }
            .on(payload) { me, value in
                check(me)
                switch value {
                case .none: return nil
                case .text(let text): return .text(text + me.name)
                case .pair(let int, let double): return .pair(int + 1, double / 2)
                }
            }
            .on(none) { me in check(me) }
            .on(closure) { me, transform in
                check(me)
                return transform(20)
            }
    }

    @Test func everyKindOfInputAndOutputReachesTheHandlerIntact() {
        let target = Derived("d")
        let chain = DelegateChain()
        chain.add(target, responses: Self.responses(for: target))
        #expect(chain.send(Self.trivial, 14) == 42)
        #expect(chain.send(Self.floating, 4) == 10)
        #expect(chain.send(Self.counted, "x") == "d:x")
        #expect(chain.send(Self.reference, Base("in")) === target)
        #expect(chain.send(Self.existential, Label(label: "a"))?.label == "a!")
        let pair = chain.send(Self.tuple, (1, "n"))
        #expect(pair?.0 == "nd")
        #expect(pair?.1 == 2)
        #expect(chain.send(Self.large, Large(a: 1, b: 2, c: 3, d: 0, e: "e")) == Large(a: 1, b: 2, c: 3, d: 6, e: "ed"))
        #expect(chain.send(Self.payload, .text("t")) == .text("td"))
        #expect(chain.send(Self.payload, .pair(1, 3)) == .pair(2, 1.5))
        #expect(chain.send(Self.payload, Payload.none) == nil)
        chain.send(Self.none)
        #expect(chain.send(Self.closure, { $0 + 1 }) == 21)
        #expect(target.calls == 12)
    }

    @Test func theBodyIsCalledUnspecializedFromTheLibrarysGenericCode() {
        let target = Derived("g")
        let responses = Self.responses(for: target)
        // Through the stored handlers, as the library's unspecialized walks call them.
        func call<Input, Output>(_ message: Message<Input, Output>, _ input: Input) -> Output {
            let handler = responses.handlers[message.id] as! Handler<Input, Output>
            return handler.body(target, input)
        }
        #expect(call(Self.trivial, 2) == 6)
        #expect(call(Self.counted, "y") == "g:y")
        #expect(call(Self.large, Large(a: 1, b: 1, c: 1, d: 0, e: "")).d == 3)
        #expect(call(Self.payload, .pair(0, 1)) == .pair(1, 0.5))
        #expect(call(Self.closure, { $0 * 2 }) == 40)
        #expect(target.calls == 5)
    }

    @Test func storedClosuresAndClosuresOfConcreteTypesAreReabstractedBeforeTheyAreErased() {
        let target = Derived("c")
        // Not literals: each is converted to the handler's generic form (a thunk) when added.
        let triple: (Derived, Int) -> Int = { me, value in
            me.calls += 1
            return value * 3
        }
        func suffix<T: Base>(_: T.Type) -> (T, String) -> String { { me, value in value + me.name } }
        let chain = DelegateChain()
        chain.add(
            target,
            responses: Responses<Derived>().on(Self.trivial, triple).on(Self.counted, suffix(Derived.self)))
        #expect(chain.send(Self.trivial, 5) == 15)
        #expect(chain.send(Self.counted, "s") == "sc")
        #expect(target.calls == 1)
    }

    @Test func aConcurrentChainCallsErasedSendableBodiesToo() {
        final class Listener: Sendable {
            let name: String
            init(_ name: String) { self.name = name }
        }
        let listener = Listener("s")
        let chain = ConcurrentDelegateChain()
        chain.add(
            listener,
            responses: SendableResponses<Listener>()
                .on(Self.counted) { me, value in me.name + value }
                .on(Self.large) { me, value in Large(a: value.a, b: 0, c: 0, d: 0, e: me.name) })
        #expect(chain.send(Self.counted, "!") == "s!")
        #expect(chain.send(Self.large, Large(a: 7, b: 1, c: 1, d: 1, e: "")) == Large(a: 7, b: 0, c: 0, d: 0, e: "s"))
        withExtendedLifetime(listener) {}
    }
}
