import Testing

@testable import FastDelegates

/// A registration for the list alone: its target is weak, its liveness up to the test.
final class ListEntry: ListedRegistration {
    let identity: ObjectIdentifier
    let serial: UInt64
    var order: UInt64 = 0
    var isUnlisted = false
    weak var target: AnyObject?
    var alive = true

    init(_ target: AnyObject, serial: UInt64) {
        identity = ObjectIdentifier(target)
        self.serial = serial
        self.target = target
    }

    func holds(_ object: AnyObject) -> Bool { target === object }
}

/// The registration model both chains share, on its own.
@Suite("Registration list")
struct RegistrationListTests {
    final class Object {}

    static func add(_ object: AnyObject, to list: inout RegistrationList<ListEntry>, at index: Int? = nil) -> ListEntry
    {
        let entry = ListEntry(object, serial: list.makeSerial())
        list.insert(entry, atLiveIndex: index, isAlive: { $0.alive }, renumbered: { _ in })
        return entry
    }

    @Test func insertPlacesAtALiveIndexWithIncreasingKeysAndMoveCountsTheOthers() {
        var list = RegistrationList<ListEntry>()
        let objects = (0..<4).map { _ in Object() }
        let a = Self.add(objects[0], to: &list), b = Self.add(objects[1], to: &list)
        b.alive = false // a dead entry is not counted by live indexes
        let c = Self.add(objects[2], to: &list, at: 1) // after a, past the dead b
        let d = Self.add(objects[3], to: &list, at: 0)
        #expect(list.entries.map(\.serial) == [d.serial, a.serial, b.serial, c.serial])
        #expect(zip(list.entries, list.entries.dropFirst()).allSatisfy { $0.order < $1.order })
        list.move(d, toLiveIndex: 2, isAlive: { $0.alive }, renumbered: { _ in }) // among a and c: last
        #expect(list.entries.filter(\.alive).map(\.serial) == [a.serial, c.serial, d.serial])
        #expect(zip(list.entries, list.entries.dropFirst()).allSatisfy { $0.order < $1.order })
    }

    @Test func keysRunOutAndAreRenumberedInOrder() {
        var list = RegistrationList<ListEntry>()
        let objects = (0..<40).map { _ in Object() }
        let first = Self.add(objects[0], to: &list)
        _ = Self.add(objects[1], to: &list)
        var renumbered = 0
        // Always before the second entry: the gap halves each time, until a renumbering.
        for object in objects.dropFirst(2) {
            let entry = ListEntry(object, serial: list.makeSerial())
            list.insert(entry, atLiveIndex: 1, isAlive: { $0.alive }, renumbered: { _ in renumbered += 1 })
        }
        #expect(renumbered > 0)
        #expect(list.entries.first === first)
        #expect(zip(list.entries, list.entries.dropFirst()).allSatisfy { $0.order < $1.order })
    }

    @Test func lookupsNeverAliasAndUnlistedEntriesLeaveWithTheSweep() {
        var list = RegistrationList<ListEntry>()
        let object = Object()
        let first = Self.add(object, to: &list)
        #expect(list.lookup(object).live === first)
        let due = list.unlist(first)
        #expect(!due)
        #expect(list.lookup(object).live == nil)
        #expect(list.entry(serial: first.serial) == nil)
        let second = Self.add(object, to: &list)
        #expect(second.serial != first.serial)
        #expect(list.entry(serial: second.serial) === second)
        // Unlisting the old entry again must not clear the new one's indexes.
        _ = list.unlist(first)
        #expect(list.lookup(object).live === second)
        #expect(list.entries.count == 2 && list.listedCount == 1)
        let (dead, left) = list.sweep { $0.alive }
        #expect(dead.isEmpty && left.map(\.serial) == [first.serial])
        #expect(list.entries.map(\.serial) == [second.serial])
    }

    @Test func aStaleEntryIsReportedWhenAnotherObjectHasItsIdentity() {
        var list = RegistrationList<ListEntry>()
        var object: Object? = Object()
        let entry = Self.add(object!, to: &list)
        object = nil
        // The identity is the dead object's address; any object later at that address is another.
        #expect(entry.target == nil)
        let stranger = Object()
        if ObjectIdentifier(stranger) == entry.identity {
            #expect(list.lookup(stranger).stale === entry)
        }
        #expect(list.lookup(stranger).live == nil)
    }

    @Test func sweepsAreDueOnceTheListDoublesOrHalfOfItIsRemoved() {
        var list = RegistrationList<ListEntry>()
        let objects = (0..<40).map { _ in Object() }
        var entries: [ListEntry] = []
        for object in objects.prefix(15) { entries.append(Self.add(object, to: &list)) }
        #expect(!list.sweepIsDue)
        entries.append(Self.add(objects[15], to: &list))
        #expect(list.sweepIsDue) // 16 entries since the last sweep (none)
        for entry in entries.prefix(10) { entry.alive = false }
        let (dead, left) = list.sweep { $0.alive }
        #expect(dead.count == 10 && left.count == 10 && dead.allSatisfy(\.isUnlisted))
        #expect(list.entries.count == 6 && !list.sweepIsDue)
        // Removals: a sweep is due once 16 or more make up half of the list.
        for object in objects.dropFirst(16) { entries.append(Self.add(object, to: &list)) }
        let listed = list.entries
        var due = false
        for (offset, entry) in listed.enumerated() {
            due = list.unlist(entry)
            if due {
                #expect(offset + 1 >= 16 && (offset + 1) * 2 >= listed.count)
                break
            }
        }
        #expect(due)
    }

    /// Issue 53: a small list keeps no index (a lookup scans it); past the threshold it builds
    /// one, and every lookup finds the same registrations either way; a sweep that shrinks it
    /// drops the index again.
    @Test func smallListsScanBigOnesIndexAndBothFindTheSameRegistrations() {
        var list = RegistrationList<ListEntry>()
        let threshold = RegistrationList<ListEntry>.indexThreshold
        let objects = (0..<(threshold * 3)).map { _ in Object() }
        var entries: [ListEntry] = []
        func expectLookups() {
            for (object, entry) in zip(objects, entries) {
                let listed = !entry.isUnlisted
                #expect((list.lookup(object).live === entry) == listed)
                #expect((list.entry(serial: entry.serial) === entry) == listed)
            }
            #expect(list.entry(serial: 0) == nil)
            #expect(list.lookup(Object()).live == nil && list.lookup(Object()).stale == nil)
        }
        for object in objects.prefix(threshold) { entries.append(Self.add(object, to: &list)) }
        #expect(!list.isIndexed)
        expectLookups()
        _ = list.unlist(entries[1])
        expectLookups()
        for object in objects.dropFirst(threshold) {
            entries.append(Self.add(object, to: &list, at: entries.count % 3 == 0 ? 0 : nil))
        }
        #expect(list.isIndexed)
        expectLookups()
        for entry in entries.dropFirst(2) where entry.serial % 2 == 0 { _ = list.unlist(entry) }
        expectLookups()
        for entry in entries.dropFirst(3) { entry.alive = false }
        _ = list.sweep { $0.alive }
        #expect(!list.isIndexed && list.entries.count == 2)
        expectLookups()
        // Re-adding past the threshold indexes the listed ones again, the kept ones included.
        for (offset, object) in objects.enumerated().dropFirst(3) {
            entries[offset] = Self.add(object, to: &list)
        }
        #expect(list.isIndexed)
        expectLookups()
        _ = list.removeAll()
        #expect(!list.isIndexed)
        expectLookups()
    }

    /// Issue 53: the list of a chain keeps its first registration inline (no array for one) and
    /// makes its array once, with the second, with room for four in all; inserting and removing
    /// anywhere keeps the order an array would.
    @Test func listEntriesKeepTheFirstInlineAndMakeTheirArrayOnceUpToFour() {
        let objects = (0..<7).map { _ in Object() }
        let made = objects.enumerated().map { ListEntry($1, serial: UInt64($0 + 1)) }
        var entries = ListEntries<ListEntry>()
        var reference: [ListEntry] = []
        #expect(entries.isEmpty && entries.arrayCapacity == 0)
        entries.append(made[0])
        reference.append(made[0])
        #expect(entries.arrayCapacity == 0) // one registration: no array
        #expect(Array(entries) === reference)
        entries.insert(made[1], at: 0)
        reference.insert(made[1], at: 0)
        let capacity = entries.arrayCapacity
        #expect(capacity >= 3)
        entries.insert(made[2], at: 1)
        reference.insert(made[2], at: 1)
        entries.append(made[3])
        reference.append(made[3])
        #expect(entries.arrayCapacity == capacity) // four: the same array
        #expect(Array(entries) === reference && entries.count == 4)
        #expect(entries.last { $0.serial < 3 } === made[0] && entries.firstIndex { $0 === made[2] } == 1)
        for (position, entry) in [(0, made[4]), (5, made[5]), (2, made[6])] {
            entries.insert(entry, at: position)
            reference.insert(entry, at: position)
            #expect(Array(entries) === reference)
        }
        for position in [0, 3, 4, 0] { // the last of five, then the first
            #expect(entries.remove(at: position) === reference.remove(at: position))
            #expect(Array(entries) === reference)
        }
        while !entries.isEmpty {
            #expect(entries.remove(at: 0) === reference.remove(at: 0))
            #expect(Array(entries) === reference && entries.count == reference.count)
        }
        entries.append(made[0])
        #expect(Array(entries) === [made[0]])
    }

    /// Issue 53: an add's whole use of the list is one `admit`: it reports the target's
    /// registration or a due sweep and adds nothing then, else lists a new registration with a
    /// new serial.
    @Test func admitReportsTheListedRegistrationOrADueSweepElseAdds() {
        var list = RegistrationList<ListEntry>()
        let objects = (0..<16).map { _ in Object() }
        func admit(_ object: Object, at index: Int? = nil) -> RegistrationList<ListEntry>.Admission {
            list.admit(
                object, atLiveIndex: index, isAlive: { $0.alive }, renumbered: { _ in },
                make: { ListEntry(object, serial: $0) })
        }
        guard case .added(let first) = admit(objects[0]) else {
            Issue.record("a new target is added")
            return
        }
        #expect(first.serial == 1 && list.lookup(objects[0]).live === first)
        guard case .listed(let listed) = admit(objects[0], at: 0) else {
            Issue.record("a listed target is reported, not added again")
            return
        }
        #expect(listed === first && list.entries.count == 1)
        guard case .added(let second) = admit(objects[1], at: 0) else {
            Issue.record("a new target is added at its index")
            return
        }
        #expect(second.serial == 2 && Array(list.entries) === [second, first])
        for object in objects.dropFirst(2).prefix(14) { _ = admit(object) }
        #expect(list.entries.count == 16)
        let fresh = Object()
        guard case .sweepDue = admit(fresh) else {
            Issue.record("a due sweep is reported before adding")
            return
        }
        #expect(list.entries.count == 16 && list.lookup(fresh).live == nil)
        _ = list.sweep { $0.alive }
        guard case .added(let added) = admit(fresh) else {
            Issue.record("after the sweep the target is added")
            return
        }
        #expect(added.serial == 17)
    }
}

/// Identity of two arrays of registrations, element by element.
private func === (lhs: [ListEntry], rhs: [ListEntry]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 === $1 }
}
