import FastDelegates
import Foundation

// The proxied protocol, expanded by the macro with the `Macros` trait; every other build compiles
// its checked-in expansion, NSKeyedUnarchiverListener+Generated.swift (`make generate` rewrites it).
#if Macros
/// `NSKeyedUnarchiverDelegate`, transcribed as Foundation declares it: add listeners to an
/// ``NSKeyedUnarchiverListenerProxy``, which fills `NSKeyedUnarchiver.delegate`.
@DelegateProxy(superclass: NSObject.self)
public protocol NSKeyedUnarchiverListener: AnyObject {
    /// `NSKeyedUnarchiverDelegate.unarchiver(_:cannotDecodeObjectOfClassName:originalClasses:)`:
    /// the first implementer's class. Nobody: `nil`, Foundation's default (the decoding fails).
    func unarchiver(
        _ unarchiver: NSKeyedUnarchiver, cannotDecodeObjectOfClassName name: String,
        originalClasses classNames: [String]
    ) -> AnyClass?
    /// `NSKeyedUnarchiverDelegate.unarchiver(_:didDecode:)`: the first implementer's replacement.
    /// Nobody: the decoded object itself, Foundation's default (swift-corelibs-foundation keeps
    /// the decoded object for `nil` too, and then reports no replacement).
    @DelegateDefault(parameter: "object")
    func unarchiver(_ unarchiver: NSKeyedUnarchiver, didDecode object: Any?) -> Any?
    /// `NSKeyedUnarchiverDelegate.unarchiver(_:willReplace:with:)`: swift-corelibs-foundation also
    /// reports an object "replaced" by itself, as its own `didDecode` default returns it.
    func unarchiver(_ unarchiver: NSKeyedUnarchiver, willReplace object: Any, with newObject: Any)
    /// `NSKeyedUnarchiverDelegate.unarchiverWillFinish(_:)`.
    func unarchiverWillFinish(_ unarchiver: NSKeyedUnarchiver)
    /// `NSKeyedUnarchiverDelegate.unarchiverDidFinish(_:)`.
    func unarchiverDidFinish(_ unarchiver: NSKeyedUnarchiver)
}
#endif
