import FastDelegates
import FastDelegatesFoundation
import Foundation
import Testing

/// Replaces the string "secret" with "redacted" while encoding.
final class Redactor: NSKeyedArchiverListener {
    var asked = 0
    func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? {
        asked += 1
        return (object as? String) == "secret" || (object as? NSString) == "secret"
            ? NSString(string: "redacted") : object
    }
}

/// Records what was encoded and the finish, not the replacement (another subset).
final class EncodeLog: NSKeyedArchiverListener {
    var encoded = 0
    var finish: [String] = []
    var replaced = 0
    var onEncode: ((EncodeLog) -> Void)?
    func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) {
        encoded += 1
        onEncode?(self)
    }
    func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?) { replaced += 1 }
    func archiverWillFinish(_ archiver: NSKeyedArchiver) { finish.append("will") }
    func archiverDidFinish(_ archiver: NSKeyedArchiver) { finish.append("did") }
}

/// A plain `NSKeyedArchiverDelegate` that keeps every object: Foundation's own encoding.
final class PlainArchiverDelegate: NSObject, NSKeyedArchiverDelegate {
    var encoded = 0
    func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any? { object }
    func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?) { encoded += 1 }
    func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?) {}
    func archiverWillFinish(_ archiver: NSKeyedArchiver) {}
    func archiverDidFinish(_ archiver: NSKeyedArchiver) {}
}

/// An object of a class the unarchiver may not find under its archived name.
final class Token: NSObject, NSCoding {
    let value: Int
    init(_ value: Int) { self.value = value }
    init?(coder: NSCoder) { value = coder.decodeInteger(forKey: "value") }
    func encode(with coder: NSCoder) { coder.encode(value, forKey: "value") }
}

/// Maps a missing class to ``Token``.
final class ClassFinder: NSKeyedUnarchiverListener {
    var asked: [String] = []
    func unarchiver(
        _ unarchiver: NSKeyedUnarchiver, cannotDecodeObjectOfClassName name: String,
        originalClasses classNames: [String]
    ) -> AnyClass? {
        asked.append(name)
        return Token.self
    }
}

/// Replaces decoded strings by their upper case, and records the finish.
final class DecodeLog: NSKeyedUnarchiverListener {
    var decoded = 0
    var replaced = 0
    var finish: [String] = []
    var upper = false
    var onDecode: ((DecodeLog) -> Void)?
    func unarchiver(_ unarchiver: NSKeyedUnarchiver, didDecode object: Any?) -> Any? {
        decoded += 1
        onDecode?(self)
        if upper, let string = object as? String { return string.uppercased() }
        return object
    }
    func unarchiver(_ unarchiver: NSKeyedUnarchiver, willReplace object: Any, with newObject: Any) { replaced += 1 }
    func unarchiverWillFinish(_ unarchiver: NSKeyedUnarchiver) { finish.append("will") }
    func unarchiverDidFinish(_ unarchiver: NSKeyedUnarchiver) { finish.append("did") }
}

/// A plain `NSKeyedUnarchiverDelegate` with Foundation's own answers.
final class PlainUnarchiverDelegate: NSObject, NSKeyedUnarchiverDelegate {
    var replaced = 0
    func unarchiver(
        _ unarchiver: NSKeyedUnarchiver, cannotDecodeObjectOfClassName name: String,
        originalClasses classNames: [String]
    ) -> AnyClass? { nil }
    func unarchiver(_ unarchiver: NSKeyedUnarchiver, didDecode object: Any?) -> Any? { object }
    func unarchiver(_ unarchiver: NSKeyedUnarchiver, willReplace object: Any, with newObject: Any) { replaced += 1 }
    func unarchiverWillFinish(_ unarchiver: NSKeyedUnarchiver) {}
    func unarchiverDidFinish(_ unarchiver: NSKeyedUnarchiver) {}
}

@Suite("NSKeyedArchiver/UnarchiverListenerProxy in a real archiver and unarchiver")
struct KeyedArchiveProxyTests {
    static var root: NSArray { ["public", "secret", NSNumber(value: 7), ["nested", "secret"] as NSArray] }

    func archive(_ root: Any, delegate: (any NSKeyedArchiverDelegate)?) -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.delegate = delegate
        archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        return archiver.encodedData
    }

    /// An archive of `root` in which ``Token``'s class is named `MissingToken`, a class that does
    /// not exist (as after a rename).
    func archiveWithMissingClass(_ root: Any) -> Data {
        let text = String(decoding: archive(root, delegate: nil), as: UTF8.self)
        return Data(text.replacingOccurrences(of: NSStringFromClass(Token.self), with: "MissingToken").utf8)
    }

    /// What `data` decodes to, as text: comparable across archives.
    func decoded(_ data: Data) throws -> String {
        String(describing: try unarchive(data, delegate: nil))
    }

    func unarchive(_ data: Data, delegate: (any NSKeyedUnarchiverDelegate)?) throws -> Any? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn // a missing class fails, not traps
        unarchiver.delegate = delegate
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    }

    func strings(_ object: Any?) -> [String] {
        guard let array = object as? NSArray else { return [] }
        return array.flatMap { item -> [String] in
            if let string = item as? String { return [string] }
            return strings(item)
        }
    }

    @Test("Two archiver listeners: one replaces objects, the other watches; nobody else is asked")
    func archiverSubsets() throws {
        let proxy = NSKeyedArchiverDelegateProxy()
        let (redactor, log) = (Redactor(), EncodeLog())
        proxy.add(log)
        proxy.add(redactor)
        let data = archive(Self.root, delegate: proxy)
        #expect(strings(try unarchive(data, delegate: nil)) == ["public", "redacted", "nested", "redacted"])
        #expect(redactor.asked > 0)
        let plain = PlainArchiverDelegate()
        _ = archive(Self.root, delegate: plain)
        #expect(log.encoded == plain.encoded)
        #expect(log.finish == ["will", "did"])
        // swift-corelibs-foundation calls an internal method (`willReplace:with:`), never the
        // requirement `willReplace:withObject:`.
        #expect(log.replaced == 0)
    }

    @Test(
        "With no listener that replaces, the archive is the archive of a plain delegate (willEncode encodes the object)"
    )
    func archiverDefault() throws {
        let empty = archive(Self.root, delegate: NSKeyedArchiverDelegateProxy())
        let watched = NSKeyedArchiverDelegateProxy()
        let log = EncodeLog()
        watched.add(log)
        let plain = archive(Self.root, delegate: PlainArchiverDelegate())
        // Archives of one graph need not be byte-equal (the plist's dictionaries have no fixed
        // order): compare their size and what they decode to.
        for data in [empty, archive(Self.root, delegate: watched), archive(Self.root, delegate: nil)] {
            #expect(data.count == plain.count)
            #expect(try decoded(data) == decoded(plain))
        }
        #expect(strings(try unarchive(empty, delegate: nil)) == ["public", "secret", "nested", "secret"])
    }

    @Test("An archiver listener removed mid-archive is not called again")
    func archiverRemovedMidStream() {
        let proxy = NSKeyedArchiverDelegateProxy()
        let (leaving, staying) = (EncodeLog(), EncodeLog())
        leaving.onEncode = { me in if me.encoded == 2 { proxy.remove(me) } }
        proxy.add(leaving)
        proxy.add(staying)
        _ = archive(Self.root, delegate: proxy)
        #expect(leaving.encoded == 2)
        #expect(staying.encoded > 2)
        #expect(leaving.finish.isEmpty)
        #expect(staying.finish == ["will", "did"])
    }

    @Test("Unarchiver: one listener finds a missing class, another replaces and watches")
    func unarchiverSubsets() throws {
        let data = archiveWithMissingClass(NSArray(array: [Token(42), "word"]))
        #expect(String(decoding: data, as: UTF8.self).contains("MissingToken"))
        // Nobody finds the class: decoding fails (swift-corelibs-foundation leaves an empty array), as
        // with a plain delegate.
        let plain = try unarchive(data, delegate: PlainUnarchiverDelegate())
        let nobody = try unarchive(data, delegate: NSKeyedUnarchiverDelegateProxy())
        #expect(String(describing: plain) == String(describing: nobody))
        #expect((nobody as? NSArray)?.contains { $0 is Token } != true)

        let proxy = NSKeyedUnarchiverDelegateProxy()
        let (finder, log) = (ClassFinder(), DecodeLog())
        log.upper = true
        proxy.add(log)
        proxy.add(finder)
        let decoded = try unarchive(data, delegate: proxy) as? NSArray
        #expect(finder.asked == ["MissingToken"])
        #expect((decoded?.firstObject as? Token)?.value == 42)
        #expect(decoded?.lastObject as? String == "WORD")
        #expect(log.decoded > 0)
        #expect(log.finish == ["will", "did"])
        #expect(log.replaced > 0)
    }

    @Test("Unarchiver with no listener that replaces decodes what a plain delegate decodes")
    func unarchiverDefault() throws {
        let data = archive(Self.root, delegate: nil)
        let plain = PlainUnarchiverDelegate()
        let expected = strings(try unarchive(data, delegate: plain))
        let proxy = NSKeyedUnarchiverDelegateProxy()
        let watcher = DecodeLog() // implements willReplace, not cannotDecode
        proxy.add(watcher)
        #expect(strings(try unarchive(data, delegate: NSKeyedUnarchiverDelegateProxy())) == expected)
        #expect(strings(try unarchive(data, delegate: proxy)) == expected)
        #expect(expected == ["public", "secret", "nested", "secret"])
        #expect(watcher.replaced == plain.replaced)
    }

    @Test("An unarchiver listener removed mid-decode is not called again; the next one answers from then on")
    func unarchiverRemovedMidStream() throws {
        let data = archive(Self.root, delegate: nil)
        let alone = NSKeyedUnarchiverDelegateProxy()
        let counter = DecodeLog()
        alone.add(counter)
        _ = try unarchive(data, delegate: alone)
        let proxy = NSKeyedUnarchiverDelegateProxy()
        let (leaving, staying) = (DecodeLog(), DecodeLog())
        leaving.onDecode = { me in if me.decoded == 2 { proxy.remove(me) } }
        proxy.add(leaving)
        proxy.add(staying)
        _ = try unarchive(data, delegate: proxy)
        // `didDecode` answers: the first implementer answers it alone, until it leaves.
        #expect(leaving.decoded == 2)
        #expect(staying.decoded == counter.decoded - 2)
        #expect(counter.decoded > 2)
        #expect(leaving.finish.isEmpty)
        #expect(staying.finish == ["will", "did"])
    }
}
