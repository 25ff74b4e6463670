import FastDelegates
import Foundation

// The proxied protocol, expanded by the macro with the `Macros` trait; every other build compiles
// its checked-in expansion, NSCacheListener+Generated.swift (`make generate` rewrites it).
#if Macros
/// `NSCacheDelegate`, transcribed as Foundation declares it: add listeners to an
/// ``NSCacheListenerProxy``, which fills `NSCache.delegate`. `Sendable`: NSCache calls its
/// delegate on the thread that evicts (under the cache's lock), so listeners are `Sendable` and
/// the proxy sends through a `ConcurrentDelegateChain`.
@DelegateProxy(superclass: NSObject.self)
public protocol NSCacheListener: AnyObject, Sendable {
    /// `NSCacheDelegate.cache(_:willEvictObject:)`: every listener, in order. Called inside the
    /// cache's lock: a listener must not call back into the cache.
    func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any)
}
#endif
