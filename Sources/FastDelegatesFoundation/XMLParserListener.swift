import FastDelegates
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

// The proxied protocol, expanded by the macro with the `Macros` trait; every other build compiles
// its checked-in expansion, XMLParserListener+Generated.swift (`make generate` rewrites it).
#if Macros
/// `XMLParserDelegate`, transcribed as Foundation declares it: implement only the requirements
/// you need, and add the listener to an ``XMLParserListenerProxy``, which fills
/// `XMLParser.delegate`. A requirement nobody implements gets Foundation's own default.
@DelegateProxy(superclass: NSObject.self)
public protocol XMLParserListener: AnyObject {
    /// `XMLParserDelegate.parserDidStartDocument(_:)`.
    func parserDidStartDocument(_ parser: XMLParser)
    /// `XMLParserDelegate.parserDidEndDocument(_:)`.
    func parserDidEndDocument(_ parser: XMLParser)
    /// `XMLParserDelegate.parser(_:foundNotationDeclarationWithName:publicID:systemID:)`.
    func parser(
        _ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?)
    /// `XMLParserDelegate.parser(_:foundUnparsedEntityDeclarationWithName:publicID:systemID:notationName:)`.
    func parser(
        _ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?,
        systemID: String?, notationName: String?)
    /// `XMLParserDelegate.parser(_:foundAttributeDeclarationWithName:forElement:type:defaultValue:)`.
    func parser(
        _ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String,
        type: String?, defaultValue: String?)
    /// `XMLParserDelegate.parser(_:foundElementDeclarationWithName:model:)`.
    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String)
    /// `XMLParserDelegate.parser(_:foundInternalEntityDeclarationWithName:value:)`.
    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?)
    /// `XMLParserDelegate.parser(_:foundExternalEntityDeclarationWithName:publicID:systemID:)`.
    func parser(
        _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?)
    /// `XMLParserDelegate.parser(_:didStartElement:namespaceURI:qualifiedName:attributes:)`.
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String])
    /// `XMLParserDelegate.parser(_:didEndElement:namespaceURI:qualifiedName:)`.
    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?)
    /// `XMLParserDelegate.parser(_:didStartMappingPrefix:toURI:)`.
    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String)
    /// `XMLParserDelegate.parser(_:didEndMappingPrefix:)`.
    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String)
    /// `XMLParserDelegate.parser(_:foundCharacters:)`.
    func parser(_ parser: XMLParser, foundCharacters string: String)
    /// `XMLParserDelegate.parser(_:foundIgnorableWhitespace:)`.
    func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String)
    /// `XMLParserDelegate.parser(_:foundProcessingInstructionWithTarget:data:)`.
    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?)
    /// `XMLParserDelegate.parser(_:foundComment:)`.
    func parser(_ parser: XMLParser, foundComment comment: String)
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// `XMLParserDelegate.parser(_:foundCDATA:)`.
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data)
    /// `XMLParserDelegate.parser(_:resolveExternalEntityName:systemID:)`: the first implementer's
    /// data. Nobody: `nil`, as without the method (the entity adds no text).
    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data?
    /// `XMLParserDelegate.parser(_:parseErrorOccurred:)`.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error)
    /// `XMLParserDelegate.parser(_:validationErrorOccurred:)`.
    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error)
}
#endif
