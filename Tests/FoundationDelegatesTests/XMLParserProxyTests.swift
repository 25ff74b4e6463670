import FastDelegates
import FastDelegatesFoundation
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Element starts and ends, the document's start and end.
final class ElementLog: XMLParserListener {
    var events: [String] = []
    var onStart: ((ElementLog, String) -> Void)?
    func parserDidStartDocument(_ parser: XMLParser) { events.append("start") }
    func parserDidEndDocument(_ parser: XMLParser) { events.append("end") }
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String]
    ) {
        events.append(
            "<\(elementName)\(attributeDict.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined())>")
        onStart?(self, elementName)
    }
    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) { events.append("</\(elementName)>") }
}

/// Text, comments, CDATA, processing instructions and errors: another subset.
final class TextLog: XMLParserListener {
    var text = ""
    var comments: [String] = []
    var cdata: [Data] = []
    var instructions: [String] = []
    var errors: [Int] = []
    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ parser: XMLParser, foundComment comment: String) { comments.append(comment) }
    func parser(_ parser: XMLParser, foundCDATA cdataBlock: Data) { cdata.append(cdataBlock) }
    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
        instructions.append(target + " " + (data ?? ""))
    }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        errors.append((parseError as NSError).code)
    }
}

/// Every callback of both logs above, as one plain `XMLParserDelegate` would write them: the
/// reference the proxy's listeners are compared with.
final class PlainXMLRecorder: NSObject, XMLParserDelegate {
    let elements = ElementLog()
    let texts = TextLog()
    func parserDidStartDocument(_ parser: XMLParser) { elements.parserDidStartDocument(parser) }
    func parserDidEndDocument(_ parser: XMLParser) { elements.parserDidEndDocument(parser) }
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String]
    ) {
        elements.parser(
            parser, didStartElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName,
            attributes: attributeDict)
    }
    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) { elements.parser(parser, didEndElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName) }
    func parser(_ parser: XMLParser, foundCharacters string: String) { texts.parser(parser, foundCharacters: string) }
    func parser(_ parser: XMLParser, foundComment comment: String) { texts.parser(parser, foundComment: comment) }
    func parser(_ parser: XMLParser, foundCDATA cdataBlock: Data) { texts.parser(parser, foundCDATA: cdataBlock) }
    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
        texts.parser(parser, foundProcessingInstructionWithTarget: target, data: data)
    }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        texts.parser(parser, parseErrorOccurred: parseError)
    }
}

/// A delegate that implements nothing: Foundation's own behaviour.
final class SilentXMLDelegate: NSObject, XMLParserDelegate {}

@Suite("XMLParserListenerProxy in a real XMLParser")
struct XMLParserProxyTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <?render mode="fast"?>
        <feed lang="en"><!-- three entries --><entry id="1"><title>Swift 6</title></entry>\
        <entry id="2"><title>Delegates &amp; proxies</title><body><![CDATA[<raw> & bytes]]></body></entry>\
        <entry id="3"><title>Linux</title></entry></feed>
        """
    static let broken = "<feed><entry></feed>"

    /// Parses `text` with `delegate`, returning `parse()`'s answer and the parser's error code.
    func parse(_ text: String, with delegate: any XMLParserDelegate) -> (Bool, Int?) {
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        let result = parser.parse()
        return (result, (parser.parserError as NSError?)?.code)
    }

    @Test("Two listeners with different subsets each receive what one plain delegate receives")
    func twoSubsets() {
        let proxy = XMLParserDelegateProxy()
        let (elements, texts) = (ElementLog(), TextLog())
        proxy.add(elements)
        proxy.add(texts)
        let plain = PlainXMLRecorder()
        let proxied = parse(Self.document, with: proxy)
        #expect(proxied == parse(Self.document, with: plain))
        #expect(proxied.0)
        #expect(elements.events.first == "start" && elements.events.last == "end")
        #expect(elements.events.contains("<entry id=2>"))
        #expect(elements.events == plain.elements.events)
        #expect(texts.text == plain.texts.text)
        #expect(texts.text.contains("Delegates & proxies"))
        #expect(texts.comments == [" three entries "])
        #expect(texts.cdata == [Data("<raw> & bytes".utf8)])
        #expect(texts.cdata == plain.texts.cdata)
        #expect(texts.instructions == plain.texts.instructions)
        #expect(texts.instructions == ["render mode=\"fast\""])
    }

    @Test("The error path reaches the implementing listener, as it reaches a plain delegate")
    func errorPath() {
        let proxy = XMLParserDelegateProxy()
        let texts = TextLog()
        proxy.add(ElementLog(), retention: .strong)
        proxy.add(texts)
        let plain = PlainXMLRecorder()
        #expect(parse(Self.broken, with: proxy) == parse(Self.broken, with: plain))
        #expect(!texts.errors.isEmpty)
        #expect(texts.errors == plain.texts.errors)
    }

    @Test("With no listener, the parse is the parse of a delegate that implements nothing")
    func noListener() {
        for text in [Self.document, Self.broken] {
            #expect(parse(text, with: XMLParserDelegateProxy()) == parse(text, with: SilentXMLDelegate()))
        }
    }

    @Test("A listener removed mid-document receives nothing more; the others everything")
    func removedMidStream() {
        let proxy = XMLParserDelegateProxy()
        let (leaving, staying) = (ElementLog(), ElementLog())
        var starts = 0
        leaving.onStart = { me, _ in
            starts += 1
            if starts == 3 { proxy.remove(me) } // inside its own call
        }
        proxy.add(leaving)
        proxy.add(staying)
        #expect(parse(Self.document, with: proxy).0)
        #expect(leaving.events.filter { $0.hasPrefix("<") && !$0.hasPrefix("</") }.count == 3)
        #expect(leaving.events.last == "<title>") // <feed>, <entry id=1>, <title>
        #expect(staying.events.count == PlainXMLRecorder().elementsAfterParsing(Self.document).count)
        #expect(proxy.chain.count == 1)
    }

    @Test("A large document: every listener gets every element (10⁴ elements)")
    func large() {
        let count = 10_000
        let text = "<root>" + String(repeating: "<item>x</item>", count: count) + "</root>"
        let proxy = XMLParserDelegateProxy()
        let listeners = (0..<3).map { _ in ElementLog() }
        for listener in listeners { proxy.add(listener) }
        #expect(parse(text, with: proxy).0)
        for listener in listeners { #expect(listener.events.count == 2 + 2 * (count + 1)) }
    }
}

extension PlainXMLRecorder {
    /// The element events a plain delegate records for `text`.
    func elementsAfterParsing(_ text: String) -> [String] {
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = self
        _ = parser.parse()
        return elements.events
    }
}
