import CDispatchTable
import Dispatch
import Testing

@Suite("Message interning")
struct InternTests {
    private static var signatureA: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 0x1000) }
    private static var signatureB: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 0x2000) }

    private func intern(
        _ name: String, _ signature: UnsafeRawPointer? = signatureA, described: String = "Sig"
    ) -> (cdt_intern_status, UInt32) {
        var id: UInt32 = 0
        let status = name.utf8CString.withUnsafeBufferPointer {
            cdt_intern($0.baseAddress, $0.count - 1, signature, described, &id)
        }
        return (status, id)
    }

    private func name(of id: UInt32) -> String? {
        var length = 0
        guard let bytes = cdt_intern_name(id, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    @Test func sameNameGivesSameId() {
        let first = intern("intern.same:")
        let second = intern("intern.same:")
        #expect(first.0 == CDT_INTERN_OK)
        #expect(first.1 != 0)
        #expect(first.1 == second.1)
    }

    @Test func distinctNamesGetDistinctDenseIds() {
        let ids = (0..<500).map { intern("intern.distinct.\($0):").1 }
        #expect(Set(ids).count == 500)
        #expect(ids.allSatisfy { $0 >= 1 && $0 <= cdt_intern_count() })
    }

    @Test func namesRoundTrip() {
        let (_, id) = intern("tableView:heightForHeaderInSection:")
        var length = 0
        let bytes = cdt_intern_name(id, &length)!
        #expect(
            String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
                == "tableView:heightForHeaderInSection:")
        #expect(cdt_intern_name(0, nil) == nil)
        #expect(cdt_intern_name(UInt32.max, nil) == nil)
    }

    @Test func namesAreComparedByBytesNotPrefix() {
        let a = intern("intern.prefix")
        let b = intern("intern.prefix:")
        #expect(a.1 != b.1)
    }

    @Test func theSameNameWithAnotherSignatureIsAnotherMessage() {
        let first = intern("intern.signature:", Self.signatureA, described: "A")
        let second = intern("intern.signature:", Self.signatureB, described: "B")
        #expect(first.0 == CDT_INTERN_OK)
        #expect(second.0 == CDT_INTERN_OK)
        #expect(second.1 != first.1)
        // Each keeps its own id when interned again, in either order.
        #expect(intern("intern.signature:", Self.signatureB).1 == second.1)
        #expect(intern("intern.signature:", Self.signatureA).1 == first.1)
        #expect(name(of: first.1) == "intern.signature:")
        #expect(name(of: second.1) == "intern.signature:")
        #expect(cdt_intern_signature_name(first.1).map { String(cString: $0) } == "A")
        #expect(cdt_intern_signature_name(second.1).map { String(cString: $0) } == "B")
        #expect(cdt_intern_signature_name(0) == nil)
    }

    @Test func aSelectorNeverSharesAnIdWithAMessageOfTheSameName() {
        func selector(_ name: String) -> UInt32 {
            var id: UInt32 = 0
            let status = name.utf8CString.withUnsafeBufferPointer {
                cdt_intern_selector($0.baseAddress, $0.count - 1, &id)
            }
            #expect(status == CDT_INTERN_OK)
            return id
        }
        let message = intern("intern.selector:").1
        let first = selector("intern.selector:")
        #expect(first != 0)
        #expect(first != message)
        #expect(selector("intern.selector:") == first)
        #expect(name(of: first) == "intern.selector:")
        #expect(cdt_intern_signature_name(first).map { String(cString: $0) } == "Objective-C selector")
        // A message without a signature (a null tag) is not a selector either.
        #expect(intern("intern.selector:", nil).1 != first)
    }

    @Test func aSignatureWithoutDescriptionHasNone() {
        var id: UInt32 = 0
        let status = "intern.undescribed:".utf8CString.withUnsafeBufferPointer {
            cdt_intern($0.baseAddress, $0.count - 1, Self.signatureA, nil, &id)
        }
        #expect(status == CDT_INTERN_OK)
        #expect(cdt_intern_signature_name(id) == nil)
        #expect(name(of: id) == "intern.undescribed:")
    }

    /// Fails each allocation a new message needs in turn: the call reports it and the message is
    /// not half-interned (the next attempt gives a working id).
    @Test func outOfMemoryIsReportedAndChangesNothing() {
        var failures = 0
        for failing in 0..<6 {
            let message = "intern.out-of-memory.\(failing):"
            _ = cdt_debug_fail_allocation_after(Int64(failing))
            let (status, _) = intern(message)
            let pending = cdt_debug_fail_allocation_after(-1)
            if status == CDT_INTERN_NO_MEMORY {
                failures += 1
                #expect(pending == -1, "the injected failure was the one reported")
            } else {
                #expect(status == CDT_INTERN_OK)
            }
            let (retried, id) = intern(message)
            #expect(retried == CDT_INTERN_OK)
            #expect(name(of: id) == message)
            #expect(cdt_intern_signature_name(id).map { String(cString: $0) } == "Sig")
        }
        #expect(failures >= 2, "at least the copies of the name and of the description can fail")
    }

    @Test func concurrentInterningAgreesOnIds() {
        let names = (0..<200).map { "intern.concurrent.\($0):" }
        let results = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 8 * names.count)
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for (i, name) in names.enumerated().reversed() where (i + worker) % 2 == 0 || worker < 4 {
                var id: UInt32 = 0
                _ = name.utf8CString.withUnsafeBufferPointer {
                    cdt_intern($0.baseAddress, $0.count - 1, Self.signatureA, nil, &id)
                }
                shared[worker * names.count + i] = id
            }
        }
        for (i, name) in names.enumerated() {
            let expected = intern(name).1
            for worker in 0..<8 where (i + worker) % 2 == 0 || worker < 4 {
                #expect(results[worker * names.count + i] == expected)
            }
        }
    }
}
