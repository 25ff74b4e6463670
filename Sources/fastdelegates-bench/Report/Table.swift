/// The default, human-readable report: one block per scenario and target count.
enum Table {
    static func render(_ rows: [ResultRow]) -> String {
        let header = [
            "scenario", "N", "variant", "median ns", "p90 ns", "allocs/op", "x reference", "checksum (verified)",
        ]
        var lines: [[String]] = []
        var previous: (String, Int)?
        for row in rows {
            if let previous, previous != (row.scenario, row.targets) { lines.append([]) }
            previous = (row.scenario, row.targets)
            lines.append([
                row.scenario, String(row.targets), row.variant,
                readable(row.median_ns), readable(row.p90_ns),
                row.allocs_per_dispatch.map { fixed($0, 2) } ?? "n/a",
                row.ratio_to_fastdelegates.map { fixed($0, 2) + "x" } ?? "-",
                String(row.checksum),
            ])
        }
        var widths = header.map(\.count)
        for line in lines {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func format(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index < 3 ? cell + pad : pad + cell // text left, numbers right
            }.joined(separator: "  ")
        }
        var out = [format(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        for line in lines { out.append(line.isEmpty ? "" : format(line)) }
        out.append(
            "x reference: the median's ratio to fastdelegates-weak's; in the lifecycle scenario, to "
                + "\(LifecycleVariants.HandWrittenForwarder.name)'s")
        return out.joined(separator: "\n") + "\n"
    }

    /// The lifecycle scenario's heap bytes and blocks per live instance (``LifecycleMemory``).
    static func render(_ memory: [LifecycleMemory.Row]) -> String {
        var out = "lifecycle: heap per live instance (\(memory.first?.instances ?? 0) instances)\n"
        for row in memory {
            let bytes = row.bytesPerInstance.map { fixed($0, 0) } ?? "n/a"
            let blocks = row.blocksPerInstance.map { fixed($0, 1) } ?? "n/a"
            let left = row.bytesLeftAfterFree.map(String.init) ?? "n/a"
            out +=
                "  N=\(row.targets) \(row.variant): \(bytes) bytes, \(blocks) blocks;"
                + " \(left) bytes left after freeing all\(row.verified ? "" : " (CHECKSUM MISMATCH)")\n"
        }
        return out
    }
}
