import FastDelegates
import Testing

/// No value of a type that is not `Sendable` reaches, through another message's send, a place
/// that believes it `Sendable`: a `@Sendable` handler, a `Sendable` stream or a `Sendable`
/// answer (`Message`'s notes on identity): each message is its declaration, so two places never
/// share an id, and no pair of declarations stops the program. The probes are those of
/// reliability rounds 3 and 4, which each found a pair sharing an id under an earlier rule.
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

    /// (c) and (d): types the run time cannot tell apart, declared at two places: two messages,
    /// and neither declaration stops the program (the rule before traps at the second place).
    enum Declarations {
        static func holder() -> Message<Holder<Any>, Void> { Message("soundness.holder") }
        static func sendableHolder() -> Message<Holder<any Sendable>, Void> { Message("soundness.holder") }
        static func function() -> Message<(Any) -> Void, Void> { Message("soundness.function") }
        static func sendableFunction() -> Message<(any Sendable) -> Void, Void> { Message("soundness.function") }
        static func closure() -> Message<@Sendable (Any) -> Void, Void> { Message("soundness.closure") }
        static func sendableClosure() -> Message<@Sendable (any Sendable) -> Void, Void> {
            Message("soundness.closure")
        }
        static func result() -> Message<Void, @Sendable () -> Any> { Message("soundness.result") }
        static func sendableResult() -> Message<Void, @Sendable () -> any Sendable> { Message("soundness.result") }
        static func pair() -> Message<(Unshared, Any), Void> { Message("soundness.pair") }
        static func sendablePair() -> Message<(Unshared & Sendable, Any), Void> { Message("soundness.pair") }
        static func metatype() -> Message<Any.Type, Void> { Message("soundness.metatype") }
        static func sendableMetatype() -> Message<any Sendable.Type, Void> { Message("soundness.metatype") }
        static func generic<T>(_: T.Type) -> Message<T, Void> { Message("soundness.generic") }
        static func concrete() -> Message<Any, Void> { Message("soundness.generic") }
        static func sameTypesHere() -> Message<Holder<Any>, Void> { Message("soundness.places") }
        static func sameTypesThere() -> Message<Holder<Any>, Void> { Message("soundness.places") }
    }

    @Test func typesTheRunTimeCannotTellApartAreTwoMessagesAtTwoPlaces() {
        #expect(Declarations.holder().id != Declarations.sendableHolder().id)
        #expect(Declarations.function().id != Declarations.sendableFunction().id)
        #expect(Declarations.closure().id != Declarations.sendableClosure().id)
        #expect(Declarations.result().id != Declarations.sendableResult().id)
        #expect(Declarations.pair().id != Declarations.sendablePair().id)
        #expect(Declarations.metatype().id != Declarations.sendableMetatype().id)
        #expect(Declarations.generic((any Sendable).self).id != Declarations.concrete().id)
        // The same types at two places: two messages too, whatever the name.
        #expect(Declarations.sameTypesHere() != Declarations.sameTypesThere())
        // One declaration made twice, as a function that makes it on each call does: one message.
        #expect(Declarations.function() == Declarations.function())
        #expect(Declarations.generic(Int.self) == Declarations.generic(Int.self))
    }

    @Test func aHandlerOfTheSendableFunctionIsNotCalledBySendsOfThePlainOne() {
        let counter = Counter()
        let chain = ConcurrentDelegateChain()
        chain.add(counter) { $0.on(Declarations.sendableFunction()) { me, _ in me.record() } }
        let unshared = Unshared()
        chain.send(Declarations.function(), { _ in unshared.count += 1 })
        #expect(counter.count == 0)
        #expect(!chain.responds(to: Declarations.function()))
    }

    /// Each message names its place.
    @Test func aMessageNamesItsPlace() {
        let here = Declarations.sameTypesHere().debugDescription
        #expect(here.hasPrefix("soundness.places ("))
        #expect(here.contains("declared at FastDelegatesTests/MessageSoundnessTests.swift:"))
        #expect(here != Declarations.sameTypesThere().debugDescription)
    }

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
}

@available(*, unavailable)
extension MessageSoundnessTests.Holder: Sendable {}
