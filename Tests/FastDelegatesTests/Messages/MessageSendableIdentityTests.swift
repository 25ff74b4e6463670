import CDispatchTable
import FastDelegates
import Synchronization
import Testing

/// Types that differ only by `Sendable` never share a message (`Message`'s notes on identity):
/// the runtime metadata of `Any` and `any Sendable` is one, so the id records, for `Input` and
/// `Output` apart, whether the compiler knew the type `Sendable`, wherever the type has a position
/// that may hide the marker (an existential or a class); and where even that cannot tell the
/// types apart, the message may be made only once. Without such a position the id records
/// nothing more, so generic code and concrete code agree.
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

    static func positions(_ type: Any.Type) -> cdt_marker_positions {
        cdt_type_marker_positions(UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type))), nil, 0)
    }

    // MARK: - Ids

    /// Declared once: a message whose types are not known `Sendable` and have a position is one
    /// declaration (`MessageSoundnessTests`).
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
        // The same declaration twice is still one message, and the names stay the same.
        #expect(Message<any Sendable, Void>("sendable.any") == Message<any Sendable, Void>("sendable.any"))
        #expect(Self.plainAny == Self.plainAny)
        #expect(Message<any Sendable, Void>("sendable.any").name == "sendable.any")
        #expect(Message<any Sendable, Void>("sendable.any").debugDescription.contains("Sendable"))
    }

    @Test func genericCodeMakesTheSameMessageAsConcreteCodeForTypesWithoutAPosition() {
        #expect(Self.unconstrained("generic.double", Double.self, Void.self) == Message<Double, Void>("generic.double"))
        #expect(Self.unconstrained("generic.string", String.self, Bool.self) == Message<String, Bool>("generic.string"))
        #expect(Self.unconstrained("generic.array", [Int].self, Void.self) == Message<[Int], Void>("generic.array"))
        #expect(Self.unconstrained("generic.opt", Int?.self, Void.self) == Message<Int?, Void>("generic.opt"))
        #expect(
            Self.unconstrained("generic.tuple", (Int, String).self, Void.self)
                == Message<(Int, String), Void>("generic.tuple"))
        #expect(Self.unconstrained("generic.box", Box<Int>.self, Void.self) == Message<Box<Int>, Void>("generic.box"))
        #expect(Self.unconstrained("generic.enum", Choice.self, Void.self) == Message<Choice, Void>("generic.enum"))
        #expect(
            Self.unconstrained("generic.function", (@Sendable (Int) -> Int).self, Void.self)
                == Message<@Sendable (Int) -> Int, Void>("generic.function"))
        #expect(Self.unconstrained("generic.meta", Int.Type.self, Void.self) == Message<Int.Type, Void>("generic.meta"))
        #expect(
            Self.unconstrained("generic.main", (@MainActor () -> Void).self, Void.self)
                == Message<@MainActor () -> Void, Void>("generic.main"))
        #expect(Self.constrained("generic.double", Double.self, Void.self) == Message<Double, Void>("generic.double"))
    }

    @Test func genericCodeOverAnExistentialMakesTheMessageItsConstraintsKnow() {
        // `Input: Sendable, Output: Sendable`: the `Sendable` message, as concrete code makes it.
        #expect(
            Self.constrained("generic.existential", (any Sendable).self, Void.self)
                == Message<any Sendable, Void>("generic.existential"))
        #expect(
            Self.constrained("generic.existential.array", [any Sendable].self, Int.self)
                == Message<[any Sendable], Int>("generic.existential.array"))
        // Unconstrained, over an existential: not known `Sendable`, whatever `Input` is at run
        // time; such a message is one declaration, so it is not also declared concretely
        // (`MessageSoundnessTests` traps on that).
        let erased = Self.unconstrained("generic.existential", (any Sendable).self, Void.self)
        #expect(erased != Message<any Sendable, Void>("generic.existential"))
    }

    @Test func theMetadataWalkFindsEveryPositionAndWhereItIs() {
        // No position: the metadata is the type.
        for type: Any.Type in [
            Int.self, String.self, [Int].self, [String: Int].self, Int?.self, (Int, String).self,
            ((Int) -> String).self, (@Sendable () -> Void).self, Int.Type.self, Box<Int>.self,
            Box<[Int?]>.self, Choice.self, Set<Int>.self, Result<Int, MessageSendableIdentityError>.self,
            Void.self, AnyHashable.self, (@MainActor () -> Void).self,
            (@Sendable () throws(MessageSendableIdentityError) -> Void).self,
            ((Int) async throws(MessageSendableIdentityError) -> String).self,
        ] {
            #expect(Self.positions(type) == CDT_MARKER_POSITIONS_NONE, "\(type)")
        }
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            #expect(Self.positions(InlineArray<2, Int>.self) == CDT_MARKER_POSITIONS_NONE)
            #expect(Self.positions(InlineArray<3, Any>.self) == CDT_MARKER_POSITIONS_OPAQUE)
        }
        // One position, in the type itself or in tuples and optionals (the caller lists more).
        for type: Any.Type in [
            Any.self, AnyObject.self, (any Q).self, (any Error).self, (any Sendable).self, Plain.self, Plain?.self,
            Any?.self, (Int, Any).self, (Int, (String, Plain?)).self,
        ] {
            #expect(Self.positions(type) == CDT_MARKER_POSITIONS_ONE, "\(type)")
        }
        #expect(Self.positions((Any, Plain).self) == CDT_MARKER_POSITIONS_SEVERAL)
        #expect(Self.positions((AnyObject?, Int, any Q).self) == CDT_MARKER_POSITIONS_SEVERAL)
        // Anywhere else: a function, a metatype, a generic type not listed, a generic class.
        for type: Any.Type in [
            [Any].self, Box<Any>.self, Box<Plain>.self, Box<Box<AnyObject>>.self, ((Any) -> Void).self,
            (() -> Any).self, ((Int, String) -> (Int, any Q)).self, Any.Type.self, (any Q).Type.self,
            (any Q.Type).self, Plain.Type.self, (any Sequence<Int>).self, GenericClass<Int>.self,
            (() throws(ClassError) -> Void).self,
        ] {
            #expect(Self.positions(type) == CDT_MARKER_POSITIONS_OPAQUE, "\(type)")
        }
    }

    @Test func theListedGenericTypesAreStructural() {
        let listed: [Any.Type] = [[Int].self, [Int: Int].self, Set<Int>.self, Result<Int, Never>.self]
        func positions(_ type: Any.Type) -> cdt_marker_positions {
            listed.map { UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier($0))) }
                .withUnsafeBufferPointer { list in
                    cdt_type_marker_positions(
                        UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type))), list.baseAddress,
                        list.count)
                }
        }
        #expect(positions([Any].self) == CDT_MARKER_POSITIONS_ONE)
        #expect(positions([String: [Plain?]].self) == CDT_MARKER_POSITIONS_ONE)
        #expect(positions(Result<Plain, any Error>.self) == CDT_MARKER_POSITIONS_SEVERAL)
        #expect(positions(Box<[Any]>.self) == CDT_MARKER_POSITIONS_OPAQUE)
        #expect(positions([(Any) -> Void].self) == CDT_MARKER_POSITIONS_OPAQUE)
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
