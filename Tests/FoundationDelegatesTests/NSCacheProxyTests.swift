import FastDelegates
import FastDelegatesFoundation
import Foundation
import Synchronization
import Testing

/// Records the objects evicted, in order.
final class EvictionLog: NSCacheListener {
    private let log = Mutex<[Int]>([])
    /// Called after each recorded eviction, with the count so far.
    let onEvict: (@Sendable (EvictionLog, Int) -> Void)?
    init(onEvict: (@Sendable (EvictionLog, Int) -> Void)? = nil) { self.onEvict = onEvict }
    var evicted: [Int] { log.withLock { $0 } }
    func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
        let count = log.withLock {
            $0.append((obj as? NSNumber)?.intValue ?? -1)
            return $0.count
        }
        onEvict?(self, count)
    }
}

/// A listener that implements nothing of the protocol (another subset: the empty one).
final class CacheBystander: NSCacheListener {}

/// A plain `NSCacheDelegate`, the reference.
final class PlainCacheDelegate: NSObject, NSCacheDelegate, @unchecked Sendable {
    let log = EvictionLog()
    func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
        log.cache(cache, willEvictObject: obj)
    }
}

/// A delegate that implements nothing but the requirement's empty body: Foundation's own cache.
final class SilentCacheDelegate: NSObject, NSCacheDelegate, @unchecked Sendable {
    func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {}
}

@Suite("NSCacheListenerProxy in a real NSCache")
struct NSCacheProxyTests {
    /// Fills a cache of `limit` objects with `count` keys, and answers which keys it still holds.
    func fill(_ delegate: (any NSCacheDelegate)?, limit: Int = 4, count: Int = 20) -> [Int] {
        let cache = NSCache<NSNumber, NSNumber>()
        cache.countLimit = limit
        cache.delegate = delegate
        for key in 0..<count { cache.setObject(NSNumber(value: key), forKey: NSNumber(value: key)) }
        return (0..<count).filter { cache.object(forKey: NSNumber(value: $0)) != nil }
    }

    @Test("Every eviction reaches the listener that implements it, as it reaches a plain delegate")
    func twoListeners() {
        let proxy = NSCacheDelegateProxy()
        let log = EvictionLog()
        proxy.add(CacheBystander(), retention: .strong)
        proxy.add(log)
        let plain = PlainCacheDelegate()
        let kept = fill(proxy)
        #expect(kept == fill(plain))
        #expect(log.evicted.count == 16)
        #expect(log.evicted == plain.log.evicted)
        #expect(Set(log.evicted).isDisjoint(with: kept))
    }

    @Test("With no listener, the cache keeps what it keeps with a delegate that does nothing")
    func noListener() {
        #expect(fill(NSCacheDelegateProxy()) == fill(SilentCacheDelegate()))
        #expect(fill(NSCacheDelegateProxy()) == fill(nil))
    }

    @Test("A listener that removes itself inside its own call on the concurrent proxy: no deadlock")
    func removedMidStream() {
        let proxy = NSCacheDelegateProxy()
        let leaving = EvictionLog { [weak proxy] me, count in
            if count == 3 { proxy?.remove(me) }
        }
        let staying = EvictionLog()
        proxy.add(leaving)
        proxy.add(staying)
        _ = fill(proxy)
        #expect(leaving.evicted.count == 3)
        #expect(staying.evicted.count == 16)
        #expect(proxy.chain.count == 1)
    }

    @Test("Evictions on several threads while listeners come and go")
    func concurrent() async {
        let proxy = NSCacheDelegateProxy()
        let cache = SharedCache()
        cache.cache.countLimit = 8
        cache.cache.delegate = proxy
        let steady = EvictionLog()
        proxy.add(steady)
        let (threads, perThread) = (4, 2_000)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for index in 0..<perThread {
                        let key = thread * perThread + index
                        cache.cache.setObject(NSNumber(value: key), forKey: NSNumber(value: key))
                    }
                }
            }
            group.addTask {
                for _ in 0..<200 {
                    let transient = EvictionLog()
                    let token = proxy.add(transient)
                    await Task.yield()
                    token.cancel()
                }
            }
        }
        let kept = (0..<(threads * perThread)).filter { cache.cache.object(forKey: NSNumber(value: $0)) != nil }
        #expect(steady.evicted.count + kept.count == threads * perThread)
        #expect(Set(steady.evicted).count == steady.evicted.count)
        #expect(proxy.chain.count == 1)
    }
}

/// An NSCache shared by several threads: NSCache is thread-safe ("you can add, remove, and query
/// items in the cache from different threads"), which its Swift type does not declare.
final class SharedCache: @unchecked Sendable {
    let cache = NSCache<NSNumber, NSNumber>()
}
