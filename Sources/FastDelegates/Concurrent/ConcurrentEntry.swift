import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One responder of one message in a snapshot: who, with which handler, and (for a `.strong`
/// registration) the target itself, so the hot path needs no weak load for it. `Unmanaged`: the
/// snapshot holds one strong reference to each object per entry, from its `init` to its `deinit`.
@usableFromInline
struct ConcurrentEntry {
    @usableFromInline let registration: Unmanaged<ConcurrentRegistration>
    @usableFromInline let handler: Unmanaged<AnyHandler>
    @usableFromInline let strongTarget: Unmanaged<AnyObject>?
}
