import FastDelegates
import Synchronization
import Testing

/// Types that differ only by `Sendable` never share a message (`Message`'s notes on identity):
/// the runtime metadata of `Any` and `any Sendable` is one, but each message is its declaration,
/// and one place outside generic code has one static type.
@Suite("Message identity and Sendable")
struct MessageSendableIdentityTests {
    protocol Q {}
    struct Box<T> { var value: T }
    final class GenericClass<T> {}
    final class Plain {}
    final class ClassError: Error {}
    enum Choice { case one, two }

    /// A target any dispatcher takes, recording what its handlers received.
    final class Recorder: Sendable {
        let received = HandoffMutex<[String]>([])
        func record(_ event: String) { received.withLock { $0.append(event) } }
        var events: [String] { received.withLock { $0 } }
    }

    static func unconstrained<Input, Output>(_ name: String, _: Input.Type, _: Output.Type) -> Message<Input, Output> {
        Message(name)
    }

    static func constrained<Input: Sendable, Output: Sendable>(_ name: String, _: Input.Type, _: Output.Type)
        -> Message<Input, Output>
    {
        Message(name)
    }

    // MARK: - Ids

    static func sendableAny() -> Message<any Sendable, Void> { Message("sendable.any") }

    static let plainAny = Message<Any, Void>("sendable.any")

    @Test func typesThatDifferOnlyBySendableAreDifferentMessages() {
        #expect(Self.plainAny.id != Message<any Sendable, Void>("sendable.any").id)
        #expect(
            Message<AnyObject, Void>("sendable.object").id
                != Message<any AnyObject & Sendable, Void>("sendable.object").id)
        #expect(Message<any Q, Void>("sendable.q").id != Message<any Q & Sendable, Void>("sendable.q").id)
        #expect(Message<[Any], Void>("sendable.array").id != Message<[any Sendable], Void>("sendable.array").id)
        #expect(Message<Any?, Void>("sendable.optional").id != Message<(any Sendable)?, Void>("sendable.optional").id)
        #expect(
            Message<[String: Any], Void>("sendable.dict").id
                != Message<[String: any Sendable], Void>("sendable.dict").id)
        #expect(
            Message<(Int, Any), Void>("sendable.tuple").id != Message<(Int, any Sendable), Void>("sendable.tuple").id)
        // `Box` is `Sendable` where `T` is: the key tells these apart, and each may be made once.
        #expect(Message<Box<Any>, Void>("sendable.box").id != Message<Box<any Sendable>, Void>("sendable.box").id)
        #expect(Message<Void, Any>("sendable.output").id != Message<Void, any Sendable>("sendable.output").id)
        // The same declaration made twice is still one message, and the names stay the same.
        #expect(Self.sendableAny() == Self.sendableAny())
        #expect(Self.sendableAny().name == Self.plainAny.name)
        #expect(Self.sendableAny().debugDescription.contains("Sendable"))
    }

    @Test func oneGenericPlaceMakesOneMessagePerRuntimeType() {
        #expect(
            Self.unconstrained("generic.double", Double.self, Void.self)
                == Self.unconstrained("generic.double", Double.self, Void.self))
        #expect(
            Self.unconstrained("generic.double", Double.self, Void.self).id
                != Self.unconstrained("generic.double", Int.self, Void.self).id)
        #expect(
            Self.unconstrained("generic.box", Box<Int>.self, Void.self).id
                != Self.unconstrained("generic.box", Box<String>.self, Void.self).id)
        // Generic and concrete code are two places: two messages, whatever the types.
        #expect(Self.unconstrained("generic.double", Double.self, Void.self) != Message<Double, Void>("generic.double"))
        #expect(Self.constrained("generic.double", Double.self, Void.self) != Message<Double, Void>("generic.double"))
        // The exception `Message` documents: one unconstrained generic place made for types that
        // differ only by `Sendable` makes one message for both (the run time cannot tell them
        // apart); a `Sendable` constraint rules the other type out.
        #expect(
            Self.unconstrained("generic.existential", Any.self, Void.self).id
                == Self.unconstrained("generic.existential", (any Sendable).self, Void.self).id)
    }

    // MARK: - Handlers and streams

    @Test(arguments: [false, true])
    func aHandlerOfOneIsNotCalledBySendsOfTheOther(concurrent: Bool) {
        let plain = Message<Any, Void>("sendable.handlers.any")
        let sendable = Message<any Sendable, Void>("sendable.handlers.any")
        let object = Message<AnyObject, Void>("sendable.handlers.object")
        let sendableObject = Message<any AnyObject & Sendable, Void>("sendable.handlers.object")
        let q = Message<any Q, Void>("sendable.handlers.q")
        let sendableQ = Message<any Q & Sendable, Void>("sendable.handlers.q")
        let array = Message<[Any], Void>("sendable.handlers.array")
        let sendableArray = Message<[any Sendable], Void>("sendable.handlers.array")
        let optional = Message<Any?, Void>("sendable.handlers.optional")
        let sendableOptional = Message<(any Sendable)?, Void>("sendable.handlers.optional")
        let recorder = Recorder()
        let responses = SendableResponses<Recorder>()
            .on(sendable) { me, _ in me.record("any Sendable") }
            .on(sendableObject) { me, _ in me.record("any AnyObject & Sendable") }
            .on(sendableQ) { me, _ in me.record("any Q & Sendable") }
            .on(sendableArray) { me, _ in me.record("[any Sendable]") }
            .on(sendableOptional) { me, _ in me.record("(any Sendable)?") }
        struct NotSendable: Q { let object = Plain() }
        let send: (any MessageDispatching) -> Void = { chain in
            chain.send(plain, Plain())
            chain.send(object, Plain())
            chain.send(q, NotSendable())
            chain.send(array, [Plain()])
            chain.send(optional, Plain())
        }
        if concurrent {
            let chain = ConcurrentDelegateChain()
            chain.add(recorder, responses: responses)
            send(chain)
            #expect(recorder.events.isEmpty)
            #expect(!chain.responds(to: plain) && chain.responds(to: sendable))
        } else {
            let chain = DelegateChain()
            chain.add(recorder, responses: responses)
            send(chain)
            #expect(recorder.events.isEmpty)
            #expect(!chain.responds(to: plain) && chain.responds(to: sendable))
        }
        // And the other way round: a handler of the plain message does not get the Sendable sends.
        let other = Recorder()
        let chain = DelegateChain()
        chain.add(other) {
            $0.on(plain) { me, _ in me.record("Any") }.on(object) { me, _ in me.record("AnyObject") }
                .on(q) { me, _ in me.record("any Q") }.on(array) { me, _ in me.record("[Any]") }
                .on(optional) { me, _ in me.record("Any?") }
        }
        chain.send(sendable, 1)
        chain.send(sendableObject, recorder)
        chain.send(sendableArray, [1])
        chain.send(sendableOptional, 1)
        #expect(other.events.isEmpty)
        chain.send(plain, 1)
        chain.send(optional, nil)
        #expect(other.events == ["Any", "Any?"])
        // Each message still reaches its own handlers.
        let both = DelegateChain()
        both.add(recorder, responses: responses)
        both.send(sendable, 1)
        both.send(sendableArray, [1])
        #expect(recorder.events == ["any Sendable", "[any Sendable]"])
    }

    @Test(arguments: [false, true])
    func aStreamOfTheSendableMessageDoesNotSeeSendsOfTheOther(concurrent: Bool) async {
        let plain = Message<Any, Void>("sendable.streams.any")
        let sendable = Message<any Sendable, Void>("sendable.streams.any")
        let array = Message<[Any], Void>("sendable.streams.array")
        let sendableArray = Message<[any Sendable], Void>("sendable.streams.array")
        let optional = Message<Any?, Void>("sendable.streams.optional")
        let sendableOptional = Message<(any Sendable)?, Void>("sendable.streams.optional")
        let object = Message<AnyObject, Void>("sendable.streams.object")
        let sendableObject = Message<any AnyObject & Sendable, Void>("sendable.streams.object")
        let chain: any MessageDispatching & InvocationObserving =
            concurrent ? ConcurrentDelegateChain() : DelegateChain()
        let values = chain.invocations(of: sendable)
        let arrays = chain.invocations(of: sendableArray)
        let optionals = chain.invocations(of: sendableOptional)
        let objects = chain.invocations(of: sendableObject)
        chain.send(plain, Plain())
        chain.send(array, [Plain()])
        chain.send(optional, Plain())
        chain.send(object, Plain())
        chain.send(sendable, "sendable")
        chain.send(sendableArray, ["sendable"])
        chain.send(sendableOptional, "sendable")
        let recorder = Recorder()
        chain.send(sendableObject, recorder)
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() as? String == "sendable")
        var arrayIterator = arrays.makeAsyncIterator()
        #expect(await arrayIterator.next()?.first as? String == "sendable")
        var optionalIterator = optionals.makeAsyncIterator()
        #expect(await optionalIterator.next()?.flatMap { $0 as? String } == "sendable")
        var objectIterator = objects.makeAsyncIterator()
        #expect(await objectIterator.next() === recorder)
    }
}

extension MessageSendableIdentityTests.Box: Sendable where T: Sendable {}

/// A concrete error type, for `Result` without an existential.
struct MessageSendableIdentityError: Error {}
