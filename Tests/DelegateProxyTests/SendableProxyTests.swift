#if Macros
import FastDelegates
import ProxyFixture
import Synchronization
import Testing

/// A `Sendable` listener: it counts the bytes it receives atomically. (Not with `Mutex`: on Linux
/// a contended `Mutex` hands its lock over in the kernel (a priority-inheriting futex), an edge
/// ThreadSanitizer cannot see, so it reports the guarded accesses as races.)
final class DownloadListener: DownloadDelegate {
    let received = Atomic<Int>(0)
    let retries: Bool
    let reserve: Int

    init(retries: Bool = false, reserve: Int = 0) {
        self.retries = retries
        self.reserve = reserve
    }

    func download(_ id: Int, didReceive bytes: Int) { received.wrappingAdd(bytes, ordering: .relaxed) }
    func shouldRetry(_ id: Int) -> Bool { retries }
    func reservedBytes() -> Int { reserve }
    var total: Int { received.load(ordering: .relaxed) }
}

@Suite("A Sendable proxy over ConcurrentDelegateChain")
struct SendableProxyTests {
    @Test("Sends from several threads reach every listener, through the host's weak delegate")
    func severalThreads() async {
        let downloader = Downloader()
        let proxy = DownloadDelegateProxy()
        downloader.delegate = proxy
        let first = DownloadListener(), second = DownloadListener()
        proxy.add(first)
        proxy.add(second)
        let threads = 4, sends = 2_000
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for send in 0..<sends { downloader.receive(1, for: thread * sends + send) }
                }
            }
        }
        #expect(first.total == threads * sends)
        #expect(second.total == threads * sends)
        withExtendedLifetime(proxy) {}
    }

    @Test("Listeners join and leave while other threads send")
    func mutationWhileSending() async {
        let proxy = DownloadDelegateProxy()
        let steady = DownloadListener()
        proxy.add(steady)
        let sends = 2_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for send in 0..<sends { proxy.download(send, didReceive: 1) }
            }
            group.addTask {
                for _ in 0..<200 {
                    let transient = DownloadListener()
                    proxy.add(transient)
                    proxy.remove(transient)
                }
            }
        }
        #expect(steady.total == sends)
        #expect(proxy.chain.count == 1)
    }

    @Test("Answers: first listener, the default, and a combination")
    func answers() {
        let proxy = DownloadDelegateProxy(mode: .breaking)
        #expect(proxy.shouldRetry(1) == false)
        #expect(proxy.reservedBytes() == 0)
        let first = DownloadListener(retries: true, reserve: 10), second = DownloadListener(reserve: 5)
        proxy.add(first)
        proxy.add(second)
        proxy.download(1, didReceive: 3)
        #expect(first.total == 3 && second.total == 0) // breaking
        #expect(proxy.shouldRetry(1) == true)
        #expect(proxy.reservedBytes() == 15)
    }

    @Test("Weak listeners that die, removal and the token; the proxy is never its own listener")
    func membership() {
        let proxy = DownloadDelegateProxy()
        var doomed: DownloadListener? = DownloadListener()
        weak var watched: DownloadListener?
        watched = doomed
        proxy.add(doomed!)
        doomed = nil
        #expect(watched == nil)
        let kept = DownloadListener()
        let token = proxy.add(kept)
        proxy.add(proxy).cancel()
        proxy.download(1, didReceive: 2)
        #expect(kept.total == 2)
        token.cancel()
        proxy.download(1, didReceive: 2)
        #expect(kept.total == 2)
        #expect(proxy.chain.isEmpty)
        #expect(!proxy.remove(kept))
    }
}
#endif
