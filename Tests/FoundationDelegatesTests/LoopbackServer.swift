import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 (a port the system picks), one request per connection, until
/// `stop()`: `/file` answers `body`; `/redirect` redirects to `/file` (302); `/private` answers
/// `body` with Basic credentials `user:secret`, and 401 with a Basic challenge otherwise. Every
/// wait is bounded, so a failed test cannot hang on it.
final class LoopbackServer: Sendable {
    let port: UInt16
    let body: Data
    private let socket: Int32
    private let requests = Mutex<[String]>([])
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    /// The request lines served so far (`GET /file`), in order.
    var served: [String] { requests.withLock { $0 } }

    struct SocketError: Error {
        let call: String
    }

    init(body: Data) throws {
        self.body = body
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
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw SocketError(call: "bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        socket = listener
        let thread = Thread { [self] in
            serve()
            finished.store(true, ordering: .releasing)
        }
        thread.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    private func serve() {
        defer { close(socket) }
        while !stopping.load(ordering: .acquiring) {
            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 50) > 0 else { continue }
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { continue }
            let request = readRequest(connection)
            let line = request.split(separator: "\r\n").first.map(String.init) ?? ""
            let parts = line.split(separator: " ")
            let path = parts.count > 1 ? String(parts[1]) : ""
            requests.withLock { $0.append(parts.prefix(2).joined(separator: " ")) }
            write(response(path: path, request: request), to: connection)
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }

    private func response(path: String, request: String) -> Data {
        func head(_ status: String, _ headers: [String], length: Int) -> Data {
            Data(
                (["HTTP/1.1 \(status)", "Content-Length: \(length)", "Connection: close"] + headers + ["", ""])
                    .joined(separator: "\r\n").utf8)
        }
        switch path {
        case "/file":
            return head("200 OK", ["Content-Type: application/octet-stream"], length: body.count) + body
        case "/redirect":
            let text = Data("moved".utf8)
            return head("302 Found", ["Location: /file", "Content-Type: text/plain"], length: text.count) + text
        case "/private":
            let expected = "Authorization: Basic " + Data("user:secret".utf8).base64EncodedString()
            if request.lowercased().contains(expected.lowercased()) {
                return head("200 OK", ["Content-Type: application/octet-stream"], length: body.count) + body
            }
            let text = Data("denied".utf8)
            return head(
                "401 Unauthorized", ["WWW-Authenticate: Basic realm=\"loopback\"", "Content-Type: text/plain"],
                length: text.count) + text
        default:
            return head("404 Not Found", [], length: 0)
        }
    }

    private func write(_ data: Data, to connection: Int32) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Reads until the end of the request's headers (the tests' requests have no body), for at
    /// most a second.
    private func readRequest(_ connection: Int32) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<20 {
            var waiting = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 50) > 0 else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
            if String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Stops accepting, and waits (at most two seconds) for the serving thread to end.
    func stop() {
        stopping.store(true, ordering: .releasing)
        for _ in 0..<200 where !finished.load(ordering: .acquiring) { usleep(10_000) }
    }
}

/// A one-shot signal, awaited with a bound.
final class Signal: Sendable {
    private let fired = Atomic<Bool>(false)
    func fire() { fired.store(true, ordering: .releasing) }
    func wait(seconds: Int) async -> Bool {
        for _ in 0..<(seconds * 100) {
            if fired.load(ordering: .acquiring) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return fired.load(ordering: .acquiring)
    }
}
