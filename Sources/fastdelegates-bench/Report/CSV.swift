/// CSV with the JSON schema's keys as header; unknown values are empty.
enum CSV {
    static func render(_ rows: [ResultRow]) -> String {
        var out = "variant,scenario,targets,median_ns,p90_ns,allocs_per_dispatch,ratio_to_fastdelegates,checksum\n"
        for row in rows {
            let cells = [
                row.variant, row.scenario, String(row.targets), fixed(row.median_ns, 3), fixed(row.p90_ns, 3),
                row.allocs_per_dispatch.map { fixed($0, 4) } ?? "",
                row.ratio_to_fastdelegates.map { fixed($0, 4) } ?? "",
                String(row.checksum),
            ]
            out += cells.joined(separator: ",") + "\n"
        }
        return out
    }
}
