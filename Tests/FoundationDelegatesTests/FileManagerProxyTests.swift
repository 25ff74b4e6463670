import FastDelegates
import FastDelegatesFoundation
import Foundation
import Synchronization
import Testing

/// Vetoes copying, moving, linking and removing items whose names contain "keep".
final class Veto: FileManagerListener {
    let asked = Mutex<[String]>([])
    private func allow(_ verb: String, _ url: URL) -> Bool {
        asked.withLock { $0.append("\(verb) \(url.lastPathComponent)") }
        return !url.lastPathComponent.contains("keep")
    }
    func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool {
        allow("copy", srcURL)
    }
    func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool {
        allow("move", srcURL)
    }
    func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool {
        allow("link", srcURL)
    }
    func fileManager(_ fileManager: FileManager, shouldRemoveItemAt url: URL) -> Bool { allow("remove", url) }
}

/// Proceeds after copy and link errors, and implements every path form (which Linux never asks).
final class Tolerant: FileManagerListener {
    let asked = Mutex<[String]>([])
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool {
        asked.withLock { $0.append("copy error \(srcURL.lastPathComponent)") }
        return true
    }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool {
        asked.withLock { $0.append("link error \(srcURL.lastPathComponent)") }
        return true
    }
    func fileManager(_ fileManager: FileManager, shouldCopyItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
        asked.withLock { $0.append("path copy") }
        return false
    }
    func fileManager(_ fileManager: FileManager, shouldMoveItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
        asked.withLock { $0.append("path move") }
        return false
    }
    func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool {
        asked.withLock { $0.append("path remove") }
        return false
    }
    func fileManager(_ fileManager: FileManager, shouldLinkItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
        asked.withLock { $0.append("path link") }
        return false
    }
}

/// A plain `FileManagerDelegate` answering Foundation's own defaults (swift-foundation's
/// protocol has no public default implementations), optionally proceeding after errors.
final class PlainFileDelegate: NSObject, FileManagerDelegate, @unchecked Sendable {
    let proceeds: Bool
    init(proceeds: Bool = false) { self.proceeds = proceeds }
    func fileManager(_ fileManager: FileManager, shouldCopyItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
        true
    }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAtPath srcPath: String,
        toPath dstPath: String
    ) -> Bool { proceeds }
    func fileManager(_ fileManager: FileManager, shouldMoveItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
        true
    }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, movingItemAtPath srcPath: String,
        toPath dstPath: String
    ) -> Bool { false }
    func fileManager(_ fileManager: FileManager, shouldLinkItemAtPath srcPath: String, toPath dstPath: String) -> Bool {
        true
    }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAtPath srcPath: String,
        toPath dstPath: String
    ) -> Bool { proceeds }
    func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool { true }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, removingItemAtPath path: String
    ) -> Bool { false }
    func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool { true }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool { proceeds }
    func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool { true }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, movingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool { false }
    func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool { true }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool { proceeds }
    func fileManager(_ fileManager: FileManager, shouldRemoveItemAt url: URL) -> Bool { true }
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, removingItemAt url: URL
    ) -> Bool { false }
}

/// A fresh temporary directory with `a.txt`, `keep.txt` and a folder `dir` holding `b.txt` and
/// `keep-c.txt`.
struct Scratch {
    let root: URL
    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fd-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("src/dir")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, folder) in [("a.txt", "src"), ("keep.txt", "src"), ("b.txt", "src/dir"), ("keep-c.txt", "src/dir")] {
            try Data(name.utf8).write(to: root.appendingPathComponent(folder).appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("out"), withIntermediateDirectories: true)
    }
    func url(_ path: String) -> URL { root.appendingPathComponent(path) }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }
    func remove() { try? FileManager.default.removeItem(at: root) }

    /// Copies, moves, links and removes with `manager`; answers what exists afterwards and which
    /// operations threw.
    func run(_ manager: FileManager) -> (files: [String], errors: [String]) {
        var errors: [String] = []
        func attempt(_ name: String, _ body: () throws -> Void) {
            do { try body() } catch { errors.append(name) }
        }
        attempt("copy dir") { try manager.copyItem(at: url("src/dir"), to: url("out/dir")) }
        attempt("copy keep") { try manager.copyItem(at: url("src/keep.txt"), to: url("out/keep.txt")) }
        attempt("copy again") { try manager.copyItem(at: url("src/a.txt"), to: url("out/dir/b.txt")) }
        attempt("move a") { try manager.moveItem(at: url("src/a.txt"), to: url("out/a.txt")) }
        attempt("link keep") { try manager.linkItem(at: url("src/keep.txt"), to: url("out/keep-link.txt")) }
        attempt("link b") { try manager.linkItem(at: url("src/dir/b.txt"), to: url("out/b-link.txt")) }
        attempt("link again") { try manager.linkItem(at: url("src/dir/b.txt"), to: url("out/b-link.txt")) }
        attempt("remove dir") { try manager.removeItem(at: url("src/dir")) }
        let all = [
            "src/a.txt", "src/keep.txt", "src/dir", "src/dir/b.txt", "src/dir/keep-c.txt", "out/dir",
            "out/dir/b.txt", "out/dir/keep-c.txt", "out/keep.txt", "out/a.txt", "out/keep-link.txt", "out/b-link.txt",
        ]
        return (all.filter(exists), errors)
    }
}

@Suite("FileManagerListenerProxy in a real FileManager")
struct FileManagerProxyTests {
    func run(_ delegate: (any FileManagerDelegate)?) throws -> (files: [String], errors: [String]) {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manager = FileManager()
        manager.delegate = delegate
        return scratch.run(manager)
    }

    @Test("With no listener, copy, move, link and remove do what they do with a plain delegate")
    func noListener() throws {
        let expected = try run(PlainFileDelegate())
        #expect(try run(FileManagerDelegateProxy()) == expected)
        #expect(try run(nil) == expected)
        #expect(expected.errors == ["copy again", "link again"])
        #expect(!expected.files.contains("src/dir"))
    }

    @Test("Two listeners: one vetoes by name, the other proceeds after errors; path forms are never asked")
    func twoSubsets() throws {
        let proxy = FileManagerDelegateProxy()
        let (veto, tolerant) = (Veto(), Tolerant())
        proxy.add(tolerant)
        proxy.add(veto)
        let result = try run(proxy)
        // Tolerant proceeds after the copy and link errors; removing `dir` fails, since the veto
        // keeps `keep-c.txt` in it (removal has no `shouldProceedAfterError` answer: `false`).
        #expect(result.errors == ["remove dir"])
        #expect(result.files.contains("src/dir/keep-c.txt"))
        #expect(!result.files.contains("src/dir/b.txt"))
        #expect(result.files.contains("out/dir/b.txt"))
        #expect(!result.files.contains("out/dir/keep-c.txt")) // vetoed inside the copied folder
        #expect(!result.files.contains("out/keep.txt"))
        #expect(!result.files.contains("out/keep-link.txt"))
        #expect(result.files.contains("out/b-link.txt"))
        #expect(result.files.contains("out/a.txt"))
        let asked = veto.asked.withLock { $0 }
        #expect(asked.contains("copy keep-c.txt") && asked.contains("move a.txt") && asked.contains("remove dir"))
        #expect(tolerant.asked.withLock { $0 } == ["copy error a.txt", "link error b.txt"])
        // A plain delegate that proceeds after errors, with the same vetoes, does the same.
        let plainTolerant = try run(PlainFileDelegate(proceeds: true))
        #expect(plainTolerant.errors.isEmpty)
    }

    @Test("A listener removed mid-operation is not asked again; the default answers from then on")
    func removedMidStream() throws {
        let proxy = FileManagerDelegateProxy()
        let leaving = RemovingVeto(proxy: proxy, after: 2)
        proxy.add(leaving)
        let result = try run(proxy)
        #expect(leaving.count.withLock { $0 } == 2)
        #expect(proxy.chain.count == 0)
        #expect(result.errors == ["copy again", "link again"])
    }
}

/// Counts the copy questions it answers (all `true`), removing itself at the `after`th.
final class RemovingVeto: FileManagerListener {
    let count = Mutex(0)
    private let proxy: FileManagerDelegateProxy
    private let after: Int
    init(proxy: FileManagerDelegateProxy, after: Int) {
        self.proxy = proxy
        self.after = after
    }
    func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool {
        let seen = count.withLock {
            $0 += 1
            return $0
        }
        if seen == after { proxy.remove(self) }
        return true
    }
}
