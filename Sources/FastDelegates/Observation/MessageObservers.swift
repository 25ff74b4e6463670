import Synchronization

// Observation of sends as AsyncStreams (RxCocoa's `methodInvoked`), shared by every dispatcher.
// A dispatcher keeps a `MessageObservers` only while something observes it, so a send made
// while nobody observes pays one nil check.

/// The observers of one dispatcher, per message. Confined to the dispatcher's thread; only the
/// end flags are written from elsewhere (by a stream's termination).
@usableFromInline
final class MessageObservers {
    @usableFromInline
    var byMessage: [UInt32: [AnyMessageObserver]] = [:]

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
            // message id has one signature (see `Message.init`).
            unsafeDowncast(observer, to: MessageObserver<Input>.self).yield(input)
        }
    }

    /// A new stream of the inputs of every send of `message`, made in `observers` (created on
    /// first use).
    static func stream<Input: Sendable, Output>(
        of message: Message<Input, Output>, in observers: inout MessageObservers?,
        bufferingPolicy: AsyncStream<Input>.Continuation.BufferingPolicy
    ) -> AsyncStream<Input> {
        let existing = observers ?? MessageObservers()
        observers = existing
        return existing.stream(of: message, bufferingPolicy: bufferingPolicy)
    }

    /// A new stream of the inputs of every send of `message`.
    func stream<Input: Sendable, Output>(
        of message: Message<Input, Output>, bufferingPolicy: AsyncStream<Input>.Continuation.BufferingPolicy
    ) -> AsyncStream<Input> {
        if someEnded.isSet { pruneEnded() }
        let (stream, continuation) = AsyncStream<Input>.makeStream(bufferingPolicy: bufferingPolicy)
        let observer = MessageObserver<Input>(
            yield: { continuation.yield($0) }, finish: { continuation.finish() })
        continuation.onTermination = { [ended = observer.ended, someEnded] _ in
            ended.set()
            someEnded.set()
        }
        byMessage[message.id, default: []].append(observer)
        return stream
    }

    /// How many streams observe `message` (ended ones are dropped first).
    func count(of messageID: UInt32) -> Int {
        if someEnded.isSet { pruneEnded() }
        return byMessage[messageID]?.count ?? 0
    }

    /// The live observers, for lifetime tests.
    var all: [AnyObject] {
        if someEnded.isSet { pruneEnded() }
        return byMessage.values.flatMap { $0 }
    }

    /// Drops the observers whose streams ended.
    ///
    /// The flag is taken (exchanged) before the observers' flags are read: a stream that ends
    /// meanwhile either is dropped now or leaves the flag set for the next call.
    @usableFromInline
    func pruneEnded() {
        guard someEnded.take() else { return }
        for (message, observers) in byMessage {
            let live = observers.filter { !$0.ended.isSet }
            if live.count != observers.count { byMessage[message] = live.isEmpty ? nil : live }
        }
    }
}
