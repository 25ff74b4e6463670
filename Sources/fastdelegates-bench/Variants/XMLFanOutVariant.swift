import FastDelegatesFoundation
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `xml` scenario: a real `XMLParser` parses a small document into N listeners (the plan
/// runs N = 3), through `FastDelegatesFoundation`'s ready-made `XMLParserDelegateProxy`, or
/// through a hand-written `XMLParserDelegate` with one `weak var` per listener. A dispatch is one
/// whole parse: the parser's own work is in both, so the ratio says what the proxy costs where it
/// is used, not per message.
enum XMLFanOutVariant {
    /// The document: `elements` children with a one-character text each, inside a root.
    static let elements = 64
    static let document = Data(("<root>" + String(repeating: "<i>v</i>", count: elements) + "</root>").utf8)
    /// What one parse adds to one listener's count: every start, end and text.
    static let callsPerParse = 3 * elements + 2

    static let proxy = Variant(name: "foundation-proxy") { scenario, n in
        guard scenario == .xml else { return nil }
        let listeners = (0..<n).map { _ in CountingListener() }
        let delegate = XMLParserDelegateProxy()
        for listener in listeners { delegate.add(listener) }
        return AnyRunner(ParseRunner(delegate: delegate, counts: { listeners.reduce(0) { $0 &+ $1.count } }))
    }

    static let handWritten = Variant(name: "handwritten-xml-forwarder") { scenario, n in
        guard scenario == .xml, n <= 3 else { return nil }
        let listeners = (0..<n).map { _ in PlainCountingDelegate() }
        let delegate = WeakXMLForwarder(listeners)
        return AnyRunner(ParseRunner(delegate: delegate, counts: { listeners.reduce(0) { $0 &+ $1.count } }))
    }

    /// Parses the document `count` times with `delegate`.
    final class ParseRunner<Delegate: XMLParserDelegate>: Runner {
        let delegate: Delegate
        let counts: () -> Int
        init(delegate: Delegate, counts: @escaping () -> Int) {
            self.delegate = delegate
            self.counts = counts
        }
        @inline(never)
        func run(_ count: Int, base: Int) {
            for _ in 0..<count {
                let parser = XMLParser(data: XMLFanOutVariant.document)
                parser.delegate = delegate
                _ = parser.parse()
            }
        }
        var checksum: Int { counts() }
    }

    /// A listener of the proxy: counts starts, ends and texts.
    final class CountingListener: XMLParserListener {
        var count = 0
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String]
        ) { count &+= 1 }
        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) { count &+= 1 }
        func parser(_ parser: XMLParser, foundCharacters string: String) { count &+= 1 }
    }

    /// The same listener as a plain `XMLParserDelegate`, for the hand-written forwarder.
    final class PlainCountingDelegate: NSObject, XMLParserDelegate {
        var count = 0
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String]
        ) { count &+= 1 }
        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) { count &+= 1 }
        func parser(_ parser: XMLParser, foundCharacters string: String) { count &+= 1 }
    }

    /// What a person writes without the library: an `XMLParserDelegate` with one `weak var` per
    /// listener, forwarding the three callbacks the listeners use to each live one.
    final class WeakXMLForwarder: NSObject, XMLParserDelegate {
        weak var first: (any XMLParserDelegate)?
        weak var second: (any XMLParserDelegate)?
        weak var third: (any XMLParserDelegate)?

        init(_ listeners: [any XMLParserDelegate]) {
            first = listeners.count > 0 ? listeners[0] : nil
            second = listeners.count > 1 ? listeners[1] : nil
            third = listeners.count > 2 ? listeners[2] : nil
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String]
        ) {
            first?.parser(
                parser, didStartElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName,
                attributes: attributeDict)
            second?.parser(
                parser, didStartElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName,
                attributes: attributeDict)
            third?.parser(
                parser, didStartElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName,
                attributes: attributeDict)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            first?.parser(parser, didEndElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName)
            second?.parser(parser, didEndElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName)
            third?.parser(parser, didEndElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            first?.parser(parser, foundCharacters: string)
            second?.parser(parser, foundCharacters: string)
            third?.parser(parser, foundCharacters: string)
        }
    }
}
