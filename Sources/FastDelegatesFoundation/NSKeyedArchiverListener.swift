import FastDelegates
import Foundation

// The proxied protocol, expanded by the macro with the `Macros` trait; every other build compiles
// its checked-in expansion, NSKeyedArchiverListener+Generated.swift (`make generate` rewrites it).
#if Macros
/// `NSKeyedArchiverDelegate`, transcribed as Foundation declares it: add listeners to an
/// ``NSKeyedArchiverListenerProxy``, which fills `NSKeyedArchiver.delegate`.
@DelegateProxy(superclass: NSObject.self)
public protocol NSKeyedArchiverListener: AnyObject {
    /// `NSKeyedArchiverDelegate.archiver(_:willEncode:)`: the first implementer's replacement
    /// (`nil` encodes nil). Nobody: the object itself, Foundation's default ("Either object or a
    /// different object to be encoded in its stead"; `nil` would encode nil, or trap on Linux).
    @DelegateDefault(parameter: "object")
    func archiver(_ archiver: NSKeyedArchiver, willEncode object: Any) -> Any?
    /// `NSKeyedArchiverDelegate.archiver(_:didEncode:)`.
    func archiver(_ archiver: NSKeyedArchiver, didEncode object: Any?)
    /// `NSKeyedArchiverDelegate.archiver(_:willReplace:withObject:)`. Never called by
    /// swift-corelibs-foundation, whose archiver calls an internal method labelled `with:` instead.
    func archiver(_ archiver: NSKeyedArchiver, willReplace object: Any?, withObject newObject: Any?)
    /// `NSKeyedArchiverDelegate.archiverWillFinish(_:)`.
    func archiverWillFinish(_ archiver: NSKeyedArchiver)
    /// `NSKeyedArchiverDelegate.archiverDidFinish(_:)`.
    func archiverDidFinish(_ archiver: NSKeyedArchiver)
}
#endif
