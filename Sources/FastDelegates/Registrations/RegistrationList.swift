/// What ``RegistrationList`` needs of a chain's registration.
protocol ListedRegistration: AnyObject {
    /// The identity of the target it was made for (valid while the target lives).
    var identity: ObjectIdentifier { get }
    /// Unique within its list for the list's whole life (64 bits never wrap): what tokens name.
    var serial: UInt64 { get }
    /// Its sort key, strictly increasing along the list; set by the list.
    var order: UInt64 { get set }
    /// Set by the list when the registration leaves its indexes (removed, or swept dead).
    var isUnlisted: Bool { get set }
    /// Whether its target is `object`, alive (the caller keeps `object` alive).
    func holds(_ object: AnyObject) -> Bool

    /// How a list keeps its registrations: an array, unless the registration's chain names a
    /// smaller form (``ListEntries``, which makes no array for one registration).
    associatedtype ListStorage: RegistrationStorage = [Self] where ListStorage.Element == Self
}

/// The collection a ``RegistrationList`` keeps its registrations in, in dispatch order.
protocol RegistrationStorage: RandomAccessCollection where Index == Int {
    init()
    mutating func insert(_ entry: Element, at position: Int)
    @discardableResult
    mutating func remove(at position: Int) -> Element
    mutating func append(_ entry: Element)
    mutating func reserveCapacity(_ capacity: Int)
}

extension Array: RegistrationStorage {}

/// The registration model both chains share: registration order (with sort keys), the identity
/// and serial indexes, insertion at a live index, and the sweep of removed and dead
/// registrations. ``DelegateChain`` owns one; ``ConcurrentDelegateChain`` keeps one under its
/// mutex. Each chain keeps its own hot path (the C table, or immutable snapshots) in step with it.
///
/// A removed registration stays in ``entries`` (unlisted) until the next sweep, so a removal
/// shifts nothing; a sweep runs once removed ones make up half of the list, and an add sweeps
/// first once the list has doubled since the last sweep, so dead registrations (and the memory
/// of targets a zeroing hold keeps) stay within a constant factor of the live ones, or 16,
/// even in a chain that never sends.
///
/// A small list (at most ``indexThreshold`` registrations, unlisted ones included) keeps no
/// index: a lookup scans ``entries``, so a chain of a few targets costs one array at most (none
/// for one target, see ``ListEntries``), not two dictionaries besides. Past the threshold it
/// builds the indexes, and lookups are O(1) expected; a sweep that leaves it at half the
/// threshold or less drops them again.
struct RegistrationList<Entry: ListedRegistration> {
    /// Every registration in dispatch order, unlisted ones not yet swept included.
    private(set) var entries = Entry.ListStorage()
    /// The listed registrations by identity and by serial; nil while `entries` holds at most
    /// `indexThreshold` registrations.
    private var index: Index?
    private var lastSerial: UInt64 = 0
    /// How many of `entries` are unlisted, and the count of `entries` at which an add sweeps:
    /// 32 bits each, one word for both (a list of 2^31 registrations would take 100 GB).
    private var unlisted: Int32 = 0
    private var sweepThreshold: Int32 = 16

    /// The indexes of a big list.
    fileprivate struct Index {
        var byIdentity: [ObjectIdentifier: Entry] = [:]
        var bySerial: [UInt64: Entry] = [:]

        mutating func add(_ entry: Entry) {
            byIdentity[entry.identity] = entry
            bySerial[entry.serial] = entry
        }
    }

    /// The most registrations a list scans rather than indexes.
    static var indexThreshold: Int { 8 }

    /// Whether the list keeps its indexes now, for tests.
    var isIndexed: Bool { index != nil }

    /// The gap between consecutive sort keys when appending: room for 2^24 insertions between
    /// two neighbours before a renumbering.
    static var orderStep: UInt64 { 1 << 24 }

    /// Registrations not removed: live, or dead and not yet swept.
    var listedCount: Int { entries.count - unlistedCount }

    /// How many of `entries` are unlisted.
    var unlistedCount: Int { Int(unlisted) }

    /// A serial for a new registration.
    mutating func makeSerial() -> UInt64 {
        lastSerial += 1
        return lastSerial
    }

    /// The listed registration whose target is `target`, if any (`live`). A registration found
    /// under `target`'s identity whose own target died, and whose address `target` now has, is
    /// `stale`: the caller removes it.
    func lookup(_ target: AnyObject) -> (live: Entry?, stale: Entry?) {
        let identity = ObjectIdentifier(target)
        let found: Entry?
        if let index {
            found = index.byIdentity[identity]
        } else {
            // At most one listed registration has an identity: an add looks it up first.
            found = entries.last { !$0.isUnlisted && $0.identity == identity }
        }
        guard let entry = found else { return (nil, nil) }
        return entry.holds(target) ? (entry, nil) : (nil, entry)
    }

    /// The listed registration with `serial`, if any.
    func entry(serial: UInt64) -> Entry? {
        if let index { return index.bySerial[serial] }
        return entries.last { !$0.isUnlisted && $0.serial == serial }
    }

    /// Whether an add should sweep first: the list has doubled since the last sweep.
    var sweepIsDue: Bool { entries.count >= Int(sweepThreshold) }

    /// What ``admit(_:atLiveIndex:isAlive:renumbered:make:)`` found.
    enum Admission {
        /// `make`'s new registration, listed.
        case added(Entry)
        /// The target's listed registration: nothing was added.
        case listed(Entry)
        /// A registration whose target died, and whose address the target now has: the caller
        /// removes it and admits again.
        case stale(Entry)
        /// A sweep is due (``sweepIsDue``): the caller sweeps and admits again.
        case sweepDue
    }

    /// Adds a registration of `target` unless it has one: looks the target up, checks that no
    /// sweep is due, and lists `make(serial)` at `liveIndex` (as
    /// ``insert(_:atLiveIndex:isAlive:renumbered:)``): what an add needs of the list, in one
    /// access to it. `make` must not reach the list.
    mutating func admit(
        _ target: AnyObject, atLiveIndex liveIndex: Int?, isAlive: (Entry) -> Bool, renumbered: (Entry) -> Void,
        make: (UInt64) -> Entry
    ) -> Admission {
        let (live, stale) = lookup(target)
        if let live { return .listed(live) }
        if let stale { return .stale(stale) }
        if sweepIsDue { return .sweepDue }
        let entry = make(makeSerial())
        insert(entry, atLiveIndex: liveIndex, isAlive: isAlive, renumbered: renumbered)
        return .added(entry)
    }

    /// Lists a new registration at the end, or before the registration now at live index
    /// `liveIndex` (counting those that are listed and `isAlive`), and gives it its sort key.
    /// `renumbered` is called for every registration whose key a renumbering changed.
    /// - Precondition: `0 <= liveIndex <= ` the live count.
    mutating func insert(
        _ entry: Entry, atLiveIndex liveIndex: Int?, isAlive: (Entry) -> Bool, renumbered: (Entry) -> Void
    ) {
        let position = place(atLiveIndex: liveIndex, isAlive: isAlive, renumbered: renumbered)
        entries.insert(entry, at: position.index)
        entry.order = position.key
        entry.isUnlisted = false
        if index != nil {
            index?.add(entry)
        } else if entries.count > Self.indexThreshold {
            var built = Index()
            for listed in entries where !listed.isUnlisted { built.add(listed) }
            index = built
        }
    }

    /// Moves a listed registration to live index `liveIndex` (counted among the others), with a
    /// new sort key.
    mutating func move(
        _ entry: Entry, toLiveIndex liveIndex: Int, isAlive: (Entry) -> Bool, renumbered: (Entry) -> Void
    ) {
        guard let current = entries.firstIndex(where: { $0 === entry }) else { return }
        entries.remove(at: current)
        let position = place(atLiveIndex: liveIndex, isAlive: isAlive, renumbered: renumbered)
        entries.insert(entry, at: position.index)
        entry.order = position.key
    }

    /// Takes a listed registration out of the indexes; it stays in `entries` until the next
    /// sweep. Returns whether a sweep is due (removed ones make up half of the list).
    /// - Complexity: O(1).
    mutating func unlist(_ entry: Entry) -> Bool {
        guard !entry.isUnlisted else { return false }
        forget(entry)
        unlisted += 1
        return unlistedCount >= 16 && unlistedCount * 2 >= entries.count
    }

    /// Drops every unlisted registration and every listed one that `isAlive` says is dead (those
    /// are unlisted here). Returns the dead ones it unlisted, and every registration that left,
    /// for the caller to let go of once the list is no longer being accessed (a registration's
    /// last release may run deinits that use the chain).
    /// - Complexity: O(*n*).
    mutating func sweep(isAlive: (Entry) -> Bool) -> (dead: [Entry], left: [Entry]) {
        var kept = Entry.ListStorage()
        var dead: [Entry] = []
        var left: [Entry] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            if entry.isUnlisted {
                left.append(entry)
            } else if isAlive(entry) {
                kept.append(entry)
            } else {
                forget(entry)
                dead.append(entry)
                left.append(entry)
            }
        }
        entries = kept
        unlisted = 0
        sweepThreshold = Int32(clamping: max(16, kept.count * 2))
        if kept.count <= Self.indexThreshold / 2 { index = nil }
        return (dead, left)
    }

    /// Empties the list; returns what it held, listed or not, all unlisted now.
    mutating func removeAll() -> [Entry] {
        let removed = Array(entries)
        for entry in removed { entry.isUnlisted = true }
        entries = Entry.ListStorage()
        index = nil
        unlisted = 0
        return removed
    }

    private mutating func forget(_ entry: Entry) {
        entry.isUnlisted = true
        guard index != nil else { return }
        if index?.byIdentity[entry.identity] === entry { index?.byIdentity[entry.identity] = nil }
        if index?.bySerial[entry.serial] === entry { index?.bySerial[entry.serial] = nil }
    }

    /// The array index and sort key before the live registration now at `liveIndex` (the end
    /// when nil).
    private mutating func place(
        atLiveIndex liveIndex: Int?, isAlive: (Entry) -> Bool, renumbered: (Entry) -> Void
    ) -> (index: Int, key: UInt64) {
        guard let liveIndex else { return appendPlace(renumbered: renumbered) }
        var live = 0
        var index = entries.count
        for (offset, entry) in entries.enumerated() where !entry.isUnlisted && isAlive(entry) {
            if live == liveIndex {
                index = offset
                break
            }
            live += 1
        }
        precondition(
            liveIndex >= 0 && (index < entries.count || live == liveIndex),
            "FastDelegates: insert index \(liveIndex) is out of range 0...\(live)")
        if index == entries.count { return appendPlace(renumbered: renumbered) }
        let below = index == 0 ? 0 : entries[index - 1].order
        if entries[index].order - below < 2 {
            renumber(renumbered)
            return place(atLiveIndex: liveIndex, isAlive: isAlive, renumbered: renumbered)
        }
        return (index, below + (entries[index].order - below) / 2)
    }

    private mutating func appendPlace(renumbered: (Entry) -> Void) -> (index: Int, key: UInt64) {
        if (entries.last?.order ?? 0) > UInt64.max - Self.orderStep * 2 { renumber(renumbered) }
        return (entries.count, (entries.last?.order ?? 0) + Self.orderStep)
    }

    private mutating func renumber(_ renumbered: (Entry) -> Void) {
        for (offset, entry) in entries.enumerated() {
            entry.order = UInt64(offset + 1) * Self.orderStep
            renumbered(entry)
        }
    }
}

extension RegistrationList: Sendable where Entry: Sendable, Entry.ListStorage: Sendable {}
extension RegistrationList.Index: Sendable where Entry: Sendable {}

/// The registrations of a ``RegistrationList`` in dispatch order: the first inline, the others
/// in an array made with the second, with room for four in all. A chain of one target keeps no
/// array, and one of up to four makes its array once.
struct ListEntries<Entry: AnyObject>: RegistrationStorage {
    /// Element 0; nil when empty.
    private var head: Entry?
    /// Elements 1 and on; empty while `head` is nil.
    private var tail: [Entry] = []

    /// The room the array is made with, besides `head`.
    static var firstTailCapacity: Int { 3 }

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : tail.count + 1 }
    var count: Int { endIndex }
    var isEmpty: Bool { head == nil }

    subscript(position: Int) -> Entry {
        position == 0 ? head! : tail[position - 1]
    }

    /// The room of the array (0 while none is allocated), for tests.
    var arrayCapacity: Int { tail.capacity }

    func makeIterator() -> Iterator {
        Iterator(head: head, tail: tail.makeIterator())
    }

    /// Walks `head`, then the array.
    struct Iterator: IteratorProtocol {
        fileprivate var head: Entry?
        fileprivate var tail: IndexingIterator<[Entry]>

        mutating func next() -> Entry? {
            if let entry = head {
                head = nil
                return entry
            }
            return tail.next()
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        if capacity > 1 { tail.reserveCapacity(capacity - 1) }
    }

    mutating func append(_ entry: Entry) {
        insert(entry, at: count)
    }

    mutating func insert(_ entry: Entry, at position: Int) {
        guard let first = head else {
            precondition(position == 0, "FastDelegates: list position out of range")
            head = entry
            return
        }
        if tail.capacity == 0 { tail.reserveCapacity(Self.firstTailCapacity) }
        if position == 0 {
            tail.insert(first, at: 0)
            head = entry
        } else {
            tail.insert(entry, at: position - 1)
        }
    }

    @discardableResult
    mutating func remove(at position: Int) -> Entry {
        guard position == 0 else { return tail.remove(at: position - 1) }
        let first = head!
        head = tail.isEmpty ? nil : tail.removeFirst()
        return first
    }
}

extension ListEntries: Sendable where Entry: Sendable {}
