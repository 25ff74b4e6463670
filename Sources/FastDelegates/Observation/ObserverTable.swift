import Synchronization

// Observation of sends as AsyncStreams (RxCocoa's `sentMessage` and `methodInvoked` timings),
// shared by every dispatcher.
// A dispatcher keeps a `ObserverTable` only while something observes it, so a send made
// while nobody observes pays one nil check.

/// The observers of one dispatcher, per message. Confined to the dispatcher's thread; only the
/// end flags are written from elsewhere (by a stream's termination).
@usableFromInline
final class ObserverTable {
    /// The streams that see a send's input before the responders run, per message.
    @usableFromInline
    var byMessage: [UInt32: [AnyStreamObserver]] = [:]

    /// The streams that see a send's input and first answer after the responders ran, per
    /// message (``InvocationTiming/afterResponders``).
    @usableFromInline
    var afterResponders: [UInt32: [AnyStreamObserver]] = [:]

    /// Whether no stream observes anything.
    var isEmpty: Bool { byMessage.isEmpty && afterResponders.isEmpty }

    /// Set when some stream ended, so the next notify or observe drops its observer.
    @usableFromInline
    let someEnded = EndFlag()

    init() {}

    /// Yields `input` to every stream observing `message`.
    /// - Complexity: O(1) expected to find the observers, then one yield each.
    @inlinable
    func notify<Input, Output>(_ message: Message<Input, Output>, _ input: Input) {
        if someEnded.isSet { pruneEnded() }
        guard let observers = byMessage[message.id] else { return }
        for observer in observers {
            // Sound: an observer of a message id was made for that message's `Input`, and a
            // message id stands for one declaration: one place, one name, the same runtime types,
            // so one static `Input`, `Sendable` alike (see `Message`'s identity).
            unsafeDowncast(observer, to: StreamObserver<Input>.self).yield(input)
        }
    }

    /// Yields `input` to every stream observing `message` before its responders.
    /// - Returns: whether some stream observes `message` after its responders: the caller then
    ///   notes the first answer of its walk and hands it to ``notifyAfterResponders(_:_:)``.
    @inlinable
    func notifyBeforeResponders<Input, Output>(_ message: Message<Input, Output>, _ input: Input) -> Bool {
        notify(message, input)
        return afterResponders[message.id] != nil
    }

    /// Yields `invocation` to every stream observing `message` after its responders.
    @inlinable
    func notifyAfterResponders<Input, Output>(
        _ message: Message<Input, Output>, _ invocation: Invocation<Input, Output>
    ) {
        if someEnded.isSet { pruneEnded() }
        guard let observers = afterResponders[message.id] else { return }
        for observer in observers {
            // Sound: an after-responders observer of a message id was made for
            // `Invocation<Input, Output>` of that message (see `stream(of:timing:…)`), and one id
            // means one `Input` and `Output`, `Sendable` alike (as in `notify`).
            unsafeDowncast(observer, to: StreamObserver<Invocation<Input, Output>>.self).yield(invocation)
        }
    }

    /// A new stream of every send of `message` at `timing`, made in `observers` (created on
    /// first use).
    static func stream<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        in observers: inout ObserverTable?, bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
    ) -> AsyncStream<Element> {
        let existing = observers ?? ObserverTable()
        observers = existing
        return existing.stream(of: message, timing: timing, bufferingPolicy: bufferingPolicy)
    }

    /// A new stream of every send of `message` at `timing`.
    func stream<Input, Output, Element: Sendable>(
        of message: Message<Input, Output>, timing: InvocationTiming<Input, Output, Element>,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
    ) -> AsyncStream<Element> {
        if someEnded.isSet { pruneEnded() }
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        let observer = StreamObserver<Element>(
            yield: { continuation.yield($0) }, finish: { continuation.finish() })
        continuation.onTermination = { [ended = observer.ended, someEnded] _ in
            ended.set()
            someEnded.set()
        }
        // The element is the input before the responders and the invocation after them: the
        // only two timings there are (`InvocationTiming`'s initializer is private).
        if timing.isAfterResponders {
            afterResponders[message.id, default: []].append(observer)
        } else {
            byMessage[message.id, default: []].append(observer)
        }
        return stream
    }

    /// How many streams observe `message` (ended ones are dropped first).
    func count(of messageID: UInt32) -> Int {
        if someEnded.isSet { pruneEnded() }
        return (byMessage[messageID]?.count ?? 0) + (afterResponders[messageID]?.count ?? 0)
    }

    /// The live observers, for lifetime tests.
    var all: [AnyObject] {
        if someEnded.isSet { pruneEnded() }
        return byMessage.values.flatMap { $0 } + afterResponders.values.flatMap { $0 }
    }

    /// Drops the observers whose streams ended.
    ///
    /// The flag is taken (exchanged) before the observers' flags are read: a stream that ends
    /// meanwhile either is dropped now or leaves the flag set for the next call.
    @usableFromInline
    func pruneEnded() {
        guard someEnded.take() else { return }
        Self.dropEnded(from: &byMessage)
        Self.dropEnded(from: &afterResponders)
    }

    private static func dropEnded(from table: inout [UInt32: [AnyStreamObserver]]) {
        for (message, observers) in table {
            let live = observers.filter { !$0.ended.isSet }
            if live.count != observers.count { table[message] = live.isEmpty ? nil : live }
        }
    }
}
