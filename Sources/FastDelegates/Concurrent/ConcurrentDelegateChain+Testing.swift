// What tests inspect of a ConcurrentDelegateChain: holds, sizes and the registrations still
// draining. Internal; none of it is on a send's path.

extension ConcurrentDelegateChain {
    /// How many streams observe `message`.
    func observerCount<Input, Output>(of message: Message<Input, Output>) -> Int {
        observers.withLock { $0?.count(of: message.id) ?? 0 }
    }

    /// Whether `target`'s registration holds it on the zeroing fast path (nil if it has none),
    /// for tests.
    func holdIsZeroingForTesting(of target: AnyObject) -> Bool? {
        let target = Unchecked(target)
        return locked { state in
            state.list.lookup(target.value).live.map { $0.zeroing != nil }
        }
    }

    /// How many removed registrations the chain keeps because their calls may still run, for
    /// tests.
    var drainingCount: Int {
        locked { $0.draining.count }
    }

    /// How many registrations the chain keeps (live or not yet reclaimed), for tests.
    package var registrationCount: Int {
        locked { $0.list.listedCount }
    }

    /// How many displaced snapshots the chain keeps for dispatches that may still walk them, for
    /// tests.
    var retiredSnapshotCountForTesting: Int { cell.retiredCountForTesting }

    /// How many dispatches of this chain nested deeper than `announcedDepth` run now, on any
    /// thread, for tests.
    var deepDispatchCountForTesting: Int { cell.deepDispatches.load(ordering: .sequentiallyConsistent) }

    /// How many entries the published snapshot has, for tests.
    var snapshotEntryCount: Int {
        let dispatch = enterConcurrentDispatch(readSide, cell: cell)
        let count = cell.load(for: dispatch, readSide)._withUnsafeGuaranteedRef { $0.entryCount }
        leaveConcurrentDispatch(readSide, dispatch, cell: cell)
        return count
    }

    /// Where the published snapshot keeps its table, for tests of its layout: the address of its
    /// storage's heap block, of its buckets, and the addresses of the entries answering `message`
    /// (as bit patterns).
    func snapshotLayoutForTesting<Input, Output>(
        of message: Message<Input, Output>
    ) -> (block: UInt, buckets: UInt, bucketCount: Int, entries: Range<UInt>) {
        let id = message.id
        return locked { _ in
            cell.published._withUnsafeGuaranteedRef { snapshot in
                let range = snapshot.responders(of: id)
                return snapshot.storage.withUnsafeBufferPointer { storage in
                    let base = UInt(bitPattern: storage.baseAddress.unsafelyUnwrapped)
                    let stride = UInt(MemoryLayout<ConcurrentEntry>.stride)
                    return (
                        unsafeBitCast(snapshot.storage, to: UInt.self), base, snapshot.mask + 1,
                        (base + UInt(range.lowerBound) * stride)..<(base + UInt(range.upperBound) * stride)
                    )
                }
            }
        }
    }

    /// Whether the published snapshot records every handler of `message` as verified (its
    /// requirement sends skip the status checks), for tests.
    func isVerifiedForTesting<Input, Output>(_ message: Message<Input, Output>) -> Bool {
        let id = message.id
        return locked { _ in cell.published._withUnsafeGuaranteedRef { $0.isVerified(id) } }
    }

    /// Builds (and drops) a snapshot of the listed registrations with `pairLimit` in place of
    /// ``ConcurrentSnapshot/pairLimit``, for tests: reaches its precondition with a few pairs.
    func buildSnapshotForTesting(pairLimit: Int) -> Int {
        locked { state in
            let listed = state.list.entries.filter { !$0.isUnlisted }
            return ConcurrentSnapshot(registrations: listed, pairLimit: pairLimit).entryCount
        }
    }
}
