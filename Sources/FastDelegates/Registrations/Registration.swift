/// One target in a chain, as both chains register it: its target's identity, its serial, what
/// it answers, and its place in the chain's ``RegistrationList``.
///
/// Each chain's registration adds how it holds the target and what its hot path reads:
/// ``ChainRegistration`` mirrors its hold into a C slot, ``ConcurrentRegistration`` keeps its hold
/// fixed and adds the atomics of the lock-free read side. Both hold a weakly retained native
/// class with one ``ZeroingHold``.
@usableFromInline
class Registration {
    /// The identity of the target it was made for (valid while the target lives).
    let identity: ObjectIdentifier

    /// Unique within its chain for the chain's whole life (64 bits never wrap): what tokens
    /// name. A C slot's 32-bit generation wraps, so it never identifies a registration alone.
    let serial: UInt64

    /// What the target answers, per message id. In a ``ConcurrentDelegateChain``, guarded by the
    /// chain's mutex.
    // Unchecked: each access is a plain read or write (under the mutex in a concurrent chain),
    // none spans a call that could reach the registration again.
    @exclusivity(unchecked) var responses: [UInt32: AnyHandler]

    /// Its sort key, set by the chain's ``RegistrationList`` (and mirrored in a C slot).
    var order: UInt64 = 0

    /// Set when the registration left its chain's indexes (``RegistrationList``).
    var isUnlisted = false

    init(target: AnyObject, serial: UInt64, responses: [UInt32: AnyHandler]) {
        identity = ObjectIdentifier(target)
        self.serial = serial
        self.responses = responses
    }
}
