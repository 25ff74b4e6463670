#if Macros
import FastDelegates
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Events recorded by the listeners of one test, in order. Main-actor tests only.
@MainActor final class EventLog {
    var events: [String] = []
    func record(_ event: String) { events.append(event) }
}

/// Events recorded from any thread (the URLSession family is `Sendable`).
final class SendableLog: Sendable {
    private let storage = HandoffMutex<[String]>([])
    func record(_ event: String) { storage.withLock { $0.append(event) } }
    var events: [String] { storage.withLock { $0 } }
}

/// A response to a request for example.com (Foundation on Linux has no `URLResponse()`).
func sampleResponse() -> URLResponse {
    URLResponse(
        url: URL(string: "https://example.com")!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
}

/// Counts the calls of a completion handler and keeps their arguments.
final class CallRecorder<Argument: Sendable>: Sendable {
    private let storage = HandoffMutex<[Argument]>([])
    func record(_ argument: Argument) { storage.withLock { $0.append(argument) } }
    var calls: [Argument] { storage.withLock { $0 } }
}
#endif
