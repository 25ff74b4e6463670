import FastDelegates
import Testing

/// No value of a type that is not `Sendable` reaches, through another message's send, a place
/// that believes it `Sendable`: a `@Sendable` handler, a `Sendable` stream or a `Sendable`
/// answer (`Message`'s notes on identity). Each pair below shared an id under the earlier rule,
/// which recorded one bit for the whole signature.
@Suite("Message identity is sound")
struct MessageSoundnessTests {
    /// A class that is not `Sendable`: its mutable state must stay on the thread that owns it.
    class Unshared {
        var count = 0
    }

    /// A generic struct that is never `Sendable`, whatever `T` is.
    struct Holder<T> {
        var value: T
    }

    /// A target of the concurrent chain that counts what its handlers received.
    final class Counter: Sendable {
        let received = HandoffMutex(0)
        func record() { received.withLock { $0 += 1 } }
        var count: Int { received.withLock { $0 } }
    }

    enum Failure: Error { case failed }

    static func constrained<Input: Sendable, Output: Sendable>(_ name: String, _: Input.Type, _: Output.Type)
        -> Message<Input, Output>
    {
        Message(name)
    }

    static func unconstrained<Input, Output>(_ name: String, _: Input.Type, _: Output.Type) -> Message<Input, Output> {
        Message(name)
    }

    // MARK: - What the key tells apart

    /// (a) A `Sendable` input with an output that is not: the input's knowledge joins the key on
    /// its own. A stream of the `Sendable` message, drained on another thread, sees none of the
    /// other's sends (ThreadSanitizer reported two races here, 100 values received).
    @Test func aStreamOfTheSendableInputSeesNoSendOfTheOtherWhateverTheOutput() async {
        let sendable = Message<any Sendable, Unshared?>("soundness.stream")
        let plain = Message<Any, Unshared?>("soundness.stream")
        #expect(sendable.id != plain.id)
        for chain: any MessageDispatching & InvocationObserving in [DelegateChain(), ConcurrentDelegateChain()] {
            let stream = chain.invocations(of: sendable)
            let drained = Task.detached {
                var received = 0
                for await value in stream {
                    if let unshared = value as? Unshared { unshared.count += 1 }
                    received += 1
                    if value as? String == "end" { break }
                }
                return received
            }
            let shared = Unshared()
            for _ in 0..<100 {
                _ = chain.send(plain, shared)
                shared.count += 1
            }
            _ = chain.send(sendable, "end")
            #expect(await drained.value == 1)
            #expect(shared.count == 100)
        }
    }

    /// (b) `Unshared & Sendable` has `Unshared`'s own metadata: a class is a position.
    @Test func aClassAndTheClassKnownSendableAreTwoMessages() {
        let plain = Message<Unshared, Void>("soundness.class")
        let sendable = Message<Unshared & Sendable, Void>("soundness.class")
        #expect(plain.id != sendable.id)
        let counter = Counter()
        let chain = ConcurrentDelegateChain()
        chain.add(counter) { $0.on(sendable) { me, _ in me.record() } }
        chain.send(plain, Unshared())
        #expect(counter.count == 0)
        #expect(!chain.responds(to: plain))
        // Output alone: a `Sendable` answer is not answered from a message whose output is not.
        let answer = Message<Void, Unshared & Sendable>("soundness.answer")
        let other = Message<Void, Unshared>("soundness.answer")
        #expect(answer.id != other.id)
    }

    /// (c) and (d): where the key cannot tell the types apart, the message is declared at one
    /// place; a declaration at a second place traps and names both.
    /// Declarations at places of their own (code a macro expands, an exit test's body among it,
    /// declares everything at the macro's place).
    enum Declarations {
        static func holder() { _ = Message<Holder<Any>, Void>("soundness.holder") }
        static func sendableHolder() { _ = Message<Holder<any Sendable>, Void>("soundness.holder") }
        static func function() { _ = Message<(Any) -> Void, Void>("soundness.function") }
        static func sendableFunction() { _ = Message<(any Sendable) -> Void, Void>("soundness.function") }
        static func closure() { _ = Message<@Sendable (Any) -> Void, Void>("soundness.closure") }
        static func sendableClosure() { _ = Message<@Sendable (any Sendable) -> Void, Void>("soundness.closure") }
        static func result() { _ = Message<Void, @Sendable () -> Any>("soundness.result") }
        static func sendableResult() { _ = Message<Void, @Sendable () -> any Sendable>("soundness.result") }
        static func pair() { _ = Message<(Unshared, Any), Void>("soundness.pair") }
        static func sendablePair() { _ = Message<(Unshared & Sendable, Any), Void>("soundness.pair") }
        static func metatype() { _ = Message<Any.Type, Void>("soundness.metatype") }
        static func sendableMetatype() { _ = Message<any Sendable.Type, Void>("soundness.metatype") }
        static func generic<T>(_: T.Type) { _ = Message<T, Void>("soundness.generic") }
        static func concrete() { _ = Message<Any, Void>("soundness.generic") }
    }

    @Test func typesTheKeyCannotTellApartAreDeclaredOnce() async {
        await #expect(processExitsWith: .failure) {
            Declarations.holder()
            Declarations.sendableHolder()
        }
        await #expect(processExitsWith: .failure) {
            Declarations.function()
            Declarations.sendableFunction()
        }
        await #expect(processExitsWith: .failure) {
            Declarations.closure()
            Declarations.sendableClosure()
        }
        await #expect(processExitsWith: .failure) {
            Declarations.result()
            Declarations.sendableResult()
        }
        await #expect(processExitsWith: .failure) {
            Declarations.pair()
            Declarations.sendablePair()
        }
        await #expect(processExitsWith: .failure) {
            Declarations.metatype()
            Declarations.sendableMetatype()
        }
        // Generic code without a `Sendable` constraint, made for `any Sendable`, against
        // `Message<Any, Void>`: the one id they would share has two declarations.
        await #expect(processExitsWith: .failure) {
            Declarations.generic((any Sendable).self)
            Declarations.concrete()
        }
        // One declaration made twice, as a function that makes it on each call does: one message.
        func make() -> Message<(Any) -> Void, Void> { Message("soundness.twice") }
        #expect(make() == make())
    }

    static func makeHere() -> Message<Holder<Any>, Void> { Message("soundness.places") }
    static func makeThere() -> Message<Holder<Any>, Void> { Message("soundness.places") }

    /// Both places are named (outside a macro: code that a macro expands, an exit test's body
    /// among it, makes everything at the macro's place).
    @Test func twoPlacesAreBothNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MessageSoundnessTests.makeHere()
            _ = MessageSoundnessTests.makeThere()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("\"soundness.places\""))
        #expect(output.contains("is declared at FastDelegatesTests/MessageSoundnessTests.swift:"))
        #expect(output.contains("and again at FastDelegatesTests/MessageSoundnessTests.swift:"))
    }

    /// Declared once, such a message works as any other.
    static let once = Message<Holder<Any>, Int>("soundness.once")

    @Test func aMessageDeclaredOnceWorks() {
        let counter = Counter()
        let chain = ConcurrentDelegateChain()
        chain.add(counter) {
            $0.on(Self.once) { me, holder in
                me.record()
                return holder.value as? Int ?? -1
            }
        }
        #expect(chain.send(Self.once, Holder(value: 7)) == 7)
        #expect(counter.count == 1)
    }

    // MARK: - Generic and concrete code (6)

    /// Generic code makes the message concrete code makes for value generics and typed throws,
    /// constrained or not: the walk answered "may hide" for both before, so generic code without
    /// a `Sendable` constraint made another message, and its handlers missed the concrete sends.
    @Test func genericCodeAgreesWithConcreteCodeForValueGenericsAndTypedThrows() {
        #expect(
            Self.unconstrained("agree.free.typed-throws", (@Sendable () throws(Failure) -> Void).self, Void.self)
                == Message<@Sendable () throws(Failure) -> Void, Void>("agree.free.typed-throws"))
        let throwing = Self.unconstrained(
            "agree.free.throws.handler", (@Sendable () throws(Failure) -> Void).self, Void.self)
        let counter = Counter()
        let chain = ConcurrentDelegateChain()
        chain.add(counter) { $0.on(throwing) { me, _ in me.record() } }
        chain.send(Message<@Sendable () throws(Failure) -> Void, Void>("agree.free.throws.handler"), {})
        #expect(counter.count == 1)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            #expect(
                Self.unconstrained("agree.free.inline", InlineArray<2, Int>.self, Void.self)
                    == Message<InlineArray<2, Int>, Void>("agree.free.inline"))
            let generic = Self.unconstrained("agree.free.inline.handler", InlineArray<2, Int>.self, Void.self)
            chain.add(counter) { $0.on(generic) { me, _ in me.record() } }
            chain.send(Message<InlineArray<2, Int>, Void>("agree.free.inline.handler"), [1, 2])
            #expect(counter.count == 2)
        }
    }

    /// Generic code whose constraints say `Sendable` makes the message concrete code makes, for
    /// every type without an existential, classes and their tuples included.
    @Test func genericCodeWithSendableConstraintsAgreesWithConcreteCode() {
        #expect(
            Self.constrained("agree.typed-throws", (@Sendable () throws(Failure) -> Void).self, Void.self)
                == Message<@Sendable () throws(Failure) -> Void, Void>("agree.typed-throws"))
        #expect(
            Self.constrained("agree.counter", Counter.self, Void.self) == Message<Counter, Void>("agree.counter"))
        #expect(
            Self.constrained("agree.pair", (Counter, Counter?).self, Int.self)
                == Message<(Counter, Counter?), Int>("agree.pair"))
        #expect(
            Self.constrained("agree.array", [any Sendable].self, Void.self)
                == Message<[any Sendable], Void>("agree.array"))
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            #expect(
                Self.constrained("agree.inline", InlineArray<2, Int>.self, Void.self)
                    == Message<InlineArray<2, Int>, Void>("agree.inline"))
            // A handler made in generic code receives the concrete sends.
            let generic = Self.constrained("agree.inline.handler", InlineArray<2, Int>.self, Void.self)
            let counter = Counter()
            let chain = ConcurrentDelegateChain()
            chain.add(counter) { $0.on(generic) { me, _ in me.record() } }
            chain.send(Message<InlineArray<2, Int>, Void>("agree.inline.handler"), [1, 2])
            #expect(counter.count == 1)
        }
        let throwing = Self.constrained("agree.throws.handler", (@Sendable () throws(Failure) -> Void).self, Void.self)
        let counter = Counter()
        let chain = ConcurrentDelegateChain()
        chain.add(counter) { $0.on(throwing) { me, _ in me.record() } }
        chain.send(Message<@Sendable () throws(Failure) -> Void, Void>("agree.throws.handler"), {})
        #expect(counter.count == 1)
    }
}

@available(*, unavailable)
extension MessageSoundnessTests.Holder: Sendable {}
