import CDispatchTable
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The read side of every ConcurrentDelegateChain: epoch-based reclamation of snapshots, and
// the announcement of each handler call, both in the sending thread's own record.
//
// A send announces itself in its *own thread's* record (one store of the global epoch on
// entering the outermost dispatch, one store of 0 on leaving it), then reads the chain's current
// snapshot pointer without retaining it. Before each handler call it names the call's
// registration in the record's call slot for its nesting level, then checks the registration's
// `removed` flag; after the call it clears the slot. Nothing a send writes is written by a send
// on another thread, so two sending cores trade no cache line; the global epoch, a chain's
// retired count and a record's count of waiting removers are written only by mutations and
// read by sends.
//
// A writer swaps in a new snapshot and *retires* the old one with a fresh epoch E (the global
// epoch, advanced after the swap). The old snapshot is released once every thread is either
// outside any dispatch of that chain or announced an epoch >= E: such a thread entered after the
// swap, so it read the new pointer. Tighter, for an outermost dispatch: after loading the pointer
// it checks that the global epoch is still the one it announced (`SnapshotCell.load(for:_:)`), so
// it holds the snapshot swapped in before that epoch was read (each retirement records the epoch
// read just before its snapshot was swapped in, `opened`), and no snapshot swapped in later: a
// long handler holds back one snapshot, not every one retired while it runs. If the epoch moved,
// the dispatch announces again with a mark (the low bit; epochs advance by 2) meaning "any
// snapshot retired after this", and loads again, never reading the snapshot it drops. A record names the chains its thread is dispatching in
// (one per nesting level, up to `announcedDepth`; deeper, a count in the record and in the chain),
// so a long handler of one chain never delays the release of another chain's snapshots. The
// writer never waits for a reader: a snapshot still in use stays retired, and the last thread
// to leave a dispatch of that chain that overlapped the retirement releases it (on leaving its
// outermost dispatch, a deinit that runs then, of a removed strong target, runs outside every
// dispatch). A remover sets `removed`, then scans the call slots and waits until no slot names
// the registration (see `CallWait.swift`).
//
// Both protocols are Dekker's pattern: each side stores, fences, then loads what the other side
// stores. The send side's fence is `cdt_light_fence`, the mutation side's is `cdt_heavy_fence`
// (`withFencedRecords`): where the OS offers a process-wide barrier (Linux `membarrier`), the
// light fence is only a compiler barrier, so a send makes no locked instruction and no hardware
// fence of its own; each mutation pays one system call instead (none while no other thread has
// a record). Either way, a scan after the heavy fence sees every announcement a reader made
// before its last light fence, and a reader's load after its light fence sees every store a
// writer made before the heavy fence.

/// The process-wide part of the read side: the epoch and every thread's record (each chain's
/// `SnapshotCell` keeps its own retired snapshots). One instance (`shared`); each chain keeps a
/// reference so a send reaches it without a lazy-global check.
@usableFromInline
final class ReadSide: Sendable {
    static let shared = ReadSide()

    /// Advanced by 2 by every retirement, so that it stays even (an announcement's low bit is a
    /// mark: see `SnapshotCell.load(for:_:)`). Starts at 2: 0 in a record means "outside".
    @usableFromInline
    let epoch = Atomic<UInt64>(2)
    /// Whether the heavy fence is the OS's process-wide barrier (`cdt_asymmetric_fences`), so a
    /// send's fences are compiler barriers only.
    @usableFromInline
    let asymmetric: Bool = cdt_asymmetric_fences()
    private let records = HandoffMutex<[ReaderRecord]>([])

    /// Gives a thread's record back when the thread ends (see `releaseThreadRecord`).
    private let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        // The destructor's parameter is optional on Linux and not on Darwin: passing it on to a
        // function taking an optional compiles on both.
        let created = pthread_key_create(&key) { releaseThreadRecord($0) }
        precondition(created == 0, "FastDelegates: no pthread key for the reader records")
        return key
    }()

    private init() {}

    /// This thread's record, made or reused on its first dispatch.
    @usableFromInline @inline(never)
    func registerCurrentThread() -> Unmanaged<ReaderRecord> {
        let record = records.withLock { records -> Unchecked<ReaderRecord> in
            for record in records
            where record.owned.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                return Unchecked(record)
            }
            let record = ReaderRecord()
            records.append(record)
            return Unchecked(record)
        }.value
        let pointer = Unmanaged.passUnretained(record).toOpaque()
        cdt_thread_set_record(pointer)
        pthread_setspecific(threadKey, pointer)
        return Unmanaged.passUnretained(record)
    }

    /// Takes the record of a thread that ended outside every dispatch out of the list. A scan that
    /// copied the list before keeps the record alive until it is done; no other thread names it.
    func drop(_ record: ReaderRecord) {
        let dropped = records.withLock { records -> Unchecked<[ReaderRecord]> in
            record.owned.store(false, ordering: .releasing)
            guard let index = records.firstIndex(where: { $0 === record }) else { return Unchecked([]) }
            return Unchecked([records.remove(at: index)])
        }
        // Its deinit runs here, after the lock.
        withExtendedLifetime(dropped) {}
    }

    /// How many records the list holds, for tests.
    var recordCountForTesting: Int { records.withLock { $0.count } }

    /// How many objects this thread's record parks (`ReaderRecord.park`), for tests.
    var parkedCountForTesting: Int {
        guard let pointer = cdt_thread_record() else { return 0 }
        return Unmanaged<ReaderRecord>.fromOpaque(pointer).takeUnretainedValue().parked.count
    }

    /// Whether the list holds the record at `address`, for tests.
    func holdsRecordForTesting(_ address: UInt) -> Bool {
        records.withLock { records in
            records.contains { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) == address }
        }
    }

    /// Runs `body` with every thread's record, after a heavy fence: `body` sees every
    /// announcement a send made before its last light fence, and every send's next load after a
    /// light fence sees what this thread stored before calling this.
    ///
    /// The system call is skipped while no other thread owns a record: a thread that registers
    /// later takes the records' lock first, so it sees those stores anyway.
    func withFencedRecords<Result>(_ body: ([ReaderRecord]) -> Result) -> Result {
        let mine = UInt(bitPattern: cdt_thread_record())
        let records = Unchecked(records.withLock { $0 })
        let others = records.value.contains {
            $0.owned.load(ordering: .acquiring) && UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) != mine
        }
        if others { cdt_heavy_fence() } else { atomicMemoryFence(ordering: .sequentiallyConsistent) }
        return body(records.value)
    }
}

/// The destructor of the reader records' thread key: takes the ending thread's record out of
/// the list, so that a mutation's scan costs what the threads alive now cost, not the most that
/// ever sent. A thread that ends inside a handler (`pthread_exit` in a handler) reads no
/// snapshot and runs no call any more: its announcements are withdrawn first (`withdraw`), so
/// that its chains' retired snapshots can be released and removers waiting for its calls
/// return. Does nothing for nil (the key's value is never nil when the destructor runs; the
/// parameter is optional because `pthread_key_create` passes one on Linux).
func releaseThreadRecord(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    let record = Unmanaged<ReaderRecord>.fromOpaque(pointer).takeUnretainedValue()
    cdt_thread_set_record(nil)
    if record.depth != 0 { record.withdraw() }
    ReadSide.shared.drop(record)
}
