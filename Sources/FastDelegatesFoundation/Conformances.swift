import FastDelegates
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Each ready-made proxy fills its Foundation slot. The transcriptions spell every requirement as
// Foundation declares it, so each proxy method below the conformance is Foundation's witness;
// `FoundationDelegatesTests` checks each one through the real component on Linux. On Apple
// platforms the protocols are Objective-C protocols: the proxies are `NSObject`s, and their
// methods are inferred `@objc` as the witnesses of these conformances (verified there only by
// reading).

extension XMLParserListenerProxy: XMLParserDelegate {}
extension NSCacheListenerProxy: NSCacheDelegate {}
extension FileManagerListenerProxy: FileManagerDelegate {}
extension NSKeyedArchiverListenerProxy: NSKeyedArchiverDelegate {}
extension NSKeyedUnarchiverListenerProxy: NSKeyedUnarchiverDelegate {}
extension URLSessionListenerProxy: URLSessionDataDelegate, URLSessionDownloadDelegate {}

/// The ready-made proxy in `XMLParser.delegate`: ``XMLParserListenerProxy``.
public typealias XMLParserDelegateProxy = XMLParserListenerProxy
/// The ready-made proxy in `NSCache.delegate`: ``NSCacheListenerProxy``.
public typealias NSCacheDelegateProxy = NSCacheListenerProxy
/// The ready-made proxy in `FileManager.delegate`: ``FileManagerListenerProxy``.
public typealias FileManagerDelegateProxy = FileManagerListenerProxy
/// The ready-made proxy in `NSKeyedArchiver.delegate`: ``NSKeyedArchiverListenerProxy``.
public typealias NSKeyedArchiverDelegateProxy = NSKeyedArchiverListenerProxy
/// The ready-made proxy in `NSKeyedUnarchiver.delegate`: ``NSKeyedUnarchiverListenerProxy``.
public typealias NSKeyedUnarchiverDelegateProxy = NSKeyedUnarchiverListenerProxy
/// The ready-made proxy a `URLSession` is created with: ``URLSessionListenerProxy``.
public typealias URLSessionDelegateProxy = URLSessionListenerProxy
