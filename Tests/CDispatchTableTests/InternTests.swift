import CDispatchTable
import Dispatch
import Testing

@Suite("Message interning")
struct InternTests {
    private static var signatureA: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 0x1000) }
    private static var signatureB: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: 0x2000) }

    private func intern(_ name: String, _ signature: UnsafeRawPointer? = signatureA) -> (cdt_intern_status, UInt32, String?) {
        var id: UInt32 = 0
        var existing: UnsafePointer<CChar>? = nil
        let status = name.utf8CString.withUnsafeBufferPointer {
            cdt_intern($0.baseAddress, $0.count - 1, signature, "Sig", &id, &existing)
        }
        return (status, id, existing.map { String(cString: $0) })
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
        let (_, id, _) = intern("tableView:heightForHeaderInSection:")
        var length = 0
        let bytes = cdt_intern_name(id, &length)!
        #expect(String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self) == "tableView:heightForHeaderInSection:")
        #expect(cdt_intern_name(0, nil) == nil)
        #expect(cdt_intern_name(UInt32.max, nil) == nil)
    }

    @Test func namesAreComparedByBytesNotPrefix() {
        let a = intern("intern.prefix")
        let b = intern("intern.prefix:")
        #expect(a.1 != b.1)
    }

    @Test func anotherSignatureIsReportedWithTheFirstOnesName() {
        let first = intern("intern.signature:", Self.signatureA)
        let second = intern("intern.signature:", Self.signatureB)
        #expect(first.0 == CDT_INTERN_OK)
        #expect(second.0 == CDT_INTERN_SIGNATURE_MISMATCH)
        #expect(second.1 == first.1)
        #expect(second.2 == "Sig")
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
                    cdt_intern($0.baseAddress, $0.count - 1, Self.signatureA, nil, &id, nil)
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
