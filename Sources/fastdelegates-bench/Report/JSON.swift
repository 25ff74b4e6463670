import Foundation

/// JSON: an array of ``ResultRow`` objects (schema in docs/bench-schema.md).
enum JSON {
    static func render(_ rows: [ResultRow]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(rows)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
