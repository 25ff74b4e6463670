import FastDelegates

/// A `@DelegateProxy` proxy whose listeners mostly do not implement the tick, as with Apple's
/// optional delegate requirements: for each of the N targets that implement it, three listeners
/// that implement nothing come before it (4N listeners, N of them implementing). Against
/// `fastdelegates-proxy` at the same N, the steady-state cost of the listeners that do not
/// implement the requirement: the first send finds them declining and drops their handlers.
enum ProxySparseVariant {
    static let variant = Variant(name: "fastdelegates-proxy-sparse") { scenario, n in
        // The bystanders are held by the proxy: nothing else keeps them.
        ScrollProxyCopies.hosted(scenario, n, sparse: true)
    }
}

/// A listener that implements no requirement of `BenchScrollDelegate`: it inherits the
/// protocol's generated defaults, so a proxy does not count it.
final class BenchBystander: BenchScrollDelegate {}
