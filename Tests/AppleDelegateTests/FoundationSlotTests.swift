#if Macros
import FastDelegates
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

// Real Foundation delegate slots on Linux, filled by generated proxies: a transcription of the
// slot's protocol (its requirements, spelled as Foundation declares them, in one protocol: a
// refining protocol's inherited requirements are protocol-extension methods of its proxy, which
// a Foundation conformance finds ambiguous with Foundation's own defaults) plus a conformance.

/// `XMLParserDelegate`'s requirements that this document's parse calls.
@DelegateProxy
protocol ParserEvents: AnyObject {
    func parserDidStartDocument(_ parser: XMLParser)
    func parserDidEndDocument(_ parser: XMLParser)
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String])
    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?)
    func parser(_ parser: XMLParser, foundCharacters string: String)
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error)
}

extension ParserEventsProxy: XMLParserDelegate {}

/// Collects the titles of a feed.
final class TitleCollector: ParserEvents {
    var titles: [String] = []
    private var inTitle = false
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String]
    ) {
        inTitle = elementName == "title"
        if inTitle { titles.append("") }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { titles[titles.count - 1] += string }
    }
    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) { inTitle = false }
}

/// Counts elements by name, and the document's start and end.
final class ElementCounter: ParserEvents {
    var counts: [String: Int] = [:]
    var events: [String] = []
    func parserDidStartDocument(_ parser: XMLParser) { events.append("start") }
    func parserDidEndDocument(_ parser: XMLParser) { events.append("end") }
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String]
    ) { counts[elementName, default: 0] += 1 }
}

/// Records parse errors.
final class ErrorRecorder: ParserEvents {
    var errors = 0
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { errors += 1 }
}

/// `URLSessionDataDelegate`'s requirements that a data task calls (with `URLSessionTaskDelegate`'s
/// completion), as FoundationNetworking declares them: a `Sendable` protocol whose proxy is an
/// `NSObject`, as the slot's `NSObjectProtocol` requires.
@DelegateProxy(superclass: NSObject.self)
protocol DataTransferDelegate: AnyObject, Sendable {
    @DelegateDefault(URLSession.ResponseDisposition.allow)
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void)
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
}

extension DataTransferDelegateProxy: URLSessionDataDelegate {}

/// Receives the body and the completion; optionally decides on the response.
final class TransferListener: DataTransferDelegate {
    let name: String
    private let state = HandoffMutex<(body: Data, completions: Int, decisions: Int)>((Data(), 0, 0))
    let decides: Bool
    init(_ name: String, decides: Bool) {
        self.name = name
        self.decides = decides
    }
    var body: Data { state.withLock { $0.body } }
    var completions: Int { state.withLock { $0.completions } }
    var decisions: Int { state.withLock { $0.decisions } }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.body.append(data) }
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { $0.completions += 1 }
    }
}

/// A listener that decides on the response (only this kind implements the decision).
final class DecidingListener: DataTransferDelegate {
    private let state = HandoffMutex<(body: Data, completions: Int, decisions: Int)>((Data(), 0, 0))
    var body: Data { state.withLock { $0.body } }
    var completions: Int { state.withLock { $0.completions } }
    var decisions: Int { state.withLock { $0.decisions } }
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.decisions += 1 }
        completionHandler(.allow)
    }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.body.append(data) }
    }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { $0.completions += 1 }
    }
}

@Suite("Generated proxies in real Foundation delegate slots", .serialized)
struct FoundationSlotTests {
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed><entry><title>Swift 6</title><id>1</id></entry><entry><title>Delegates &amp; proxies</title><id>2</id></entry><entry><title>Linux</title><id>3</id></entry></feed>
        """

    @Test("A real XMLParser parses a real document into three listeners through one proxy")
    func xmlParser() {
        let proxy = ParserEventsProxy()
        let (titles, counter, errors) = (TitleCollector(), ElementCounter(), ErrorRecorder())
        for listener in [titles, counter, errors] as [any ParserEvents] { proxy.add(listener) }
        let parser = XMLParser(data: Data(Self.feed.utf8))
        parser.delegate = proxy
        #expect(parser.parse())
        #expect(titles.titles == ["Swift 6", "Delegates & proxies", "Linux"])
        #expect(counter.counts == ["feed": 1, "entry": 3, "title": 3, "id": 3])
        #expect(counter.events == ["start", "end"])
        #expect(errors.errors == 0)

        // A broken document reaches the error listener (swift-corelibs-foundation's `parse()`
        // still answers true for this one, so only the delegate call is checked).
        let broken = XMLParser(data: Data("<feed><entry></feed>".utf8))
        broken.delegate = proxy
        _ = broken.parse()
        #expect(errors.errors >= 1)
    }

    @Test("A real URLSession against a loopback server: data and completion reach every listener")
    func urlSession() async throws {
        let body = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let server = try LoopbackHTTPServer(body: body, connections: 2)
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/feed")!

        // No listener decides: the proxy completes the decision with its default, `.allow`.
        do {
            let proxy = DataTransferDelegateProxy()
            #expect((proxy as AnyObject) is NSObject)
            let first = TransferListener("first", decides: false)
            let second = TransferListener("second", decides: false)
            proxy.add(first)
            proxy.add(second)
            try await run(url, delegate: proxy)
            #expect(first.body == body)
            #expect(second.body == body)
            #expect(first.completions == 1)
            #expect(second.completions == 1)
        }
        // The first implementer decides, once; the listener after it is not asked.
        do {
            let proxy = DataTransferDelegateProxy()
            let plain = TransferListener("plain", decides: false)
            let decider = DecidingListener()
            let later = DecidingListener()
            proxy.add(plain)
            proxy.add(decider)
            proxy.add(later)
            try await run(url, delegate: proxy)
            #expect(decider.decisions == 1)
            #expect(later.decisions == 0)
            #expect(plain.body == body)
            #expect(decider.body == body)
            #expect(later.body == body)
            #expect(plain.completions == 1)
            #expect(decider.completions == 1)
            #expect(later.completions == 1)
        }
        #expect(server.served == 2)
    }

    /// Runs one data task with `delegate` as the session's delegate, until it completes.
    private func run(_ url: URL, delegate: DataTransferDelegateProxy) async throws {
        let done = CompletionSignal()
        let observer = CompletionObserver(done)
        delegate.add(observer, retention: .strong)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        session.dataTask(with: url).resume()
        let finished = await done.wait(seconds: 20)
        session.finishTasksAndInvalidate()
        #expect(finished, "the data task did not complete")
        #expect(observer.error == nil)
    }
}

/// The last listener: signals the task's completion.
final class CompletionObserver: DataTransferDelegate {
    let signal: CompletionSignal
    private let failure = HandoffMutex<String?>(nil)
    init(_ signal: CompletionSignal) { self.signal = signal }
    var error: String? { failure.withLock { $0 } }
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        failure.withLock { $0 = error.map { "\($0)" } }
        signal.fire()
    }
}

/// A one-shot signal, awaited with a bound.
final class CompletionSignal: Sendable {
    private let fired = Atomic<Bool>(false)
    func fire() { fired.store(true, ordering: .releasing) }
    var isFired: Bool { fired.load(ordering: .acquiring) }
    func wait(seconds: Int) async -> Bool {
        for _ in 0..<(seconds * 100) {
            if fired.load(ordering: .acquiring) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return fired.load(ordering: .acquiring)
    }
}

/// An HTTP/1.1 server on 127.0.0.1 (a port the system picks) that answers `connections`
/// requests with `body`, each on its own connection, then stops; `stop()` ends it sooner. Every
/// wait is bounded (poll with a timeout), so a failed test cannot hang on it.
final class LoopbackHTTPServer: Sendable {
    let port: UInt16
    private let socket: Int32
    private let servedCount = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let finished = CompletionSignal()

    var served: Int { servedCount.load(ordering: .acquiring) }

    struct SocketError: Error {
        let call: String
    }

    init(body: Data, connections: Int) throws {
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SocketError(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            close(listener)
            throw SocketError(call: "bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        socket = listener
        let response =
            Data(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                    .utf8)
            + body
        let thread = Thread { [self] in
            serve(response, connections: connections)
            finished.fire()
        }
        thread.start()
    }

    private func serve(_ response: Data, connections: Int) {
        defer { close(socket) }
        while served < connections, !stopping.load(ordering: .acquiring) {
            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { continue }
            readRequest(connection)
            response.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = send(
                        connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                    if written <= 0 { break }
                    offset += written
                }
            }
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
            servedCount.add(1, ordering: .releasing)
        }
    }

    /// Reads until the end of the request's headers (the test's requests have no body), for at
    /// most a second.
    private func readRequest(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        for _ in 0..<10 {
            var waiting = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            received += buffer[..<count]
            if received.count >= 4,
                received.indices.dropLast(3).contains(where: { Array(received[$0..<$0 + 4]) == end })
            {
                return
            }
        }
    }

    /// Stops accepting, and waits (at most two seconds) for the serving thread to end.
    func stop() {
        stopping.store(true, ordering: .releasing)
        for _ in 0..<200 where !finished.isFired { usleep(10_000) }
    }
}
#endif
