#if Macros
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's root directory, from this file's path.
let packageRoot: String = {
    var path = #filePath
    for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
}()

struct FileError: Error, CustomStringConvertible {
    let path: String
    var description: String { "cannot access \(path)" }
}

/// The whole file at `path`, as UTF-8.
func readFile(_ path: String) throws -> String {
    guard let file = fopen(path, "rb") else { throw FileError(path: path) }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The `@DelegateProxy` declaration in the package's file at `relativePath`: from its
/// `@DelegateProxy` line to the first line that closes it (a `}` at its indentation).
func proxiedDeclaration(in relativePath: String) throws -> String {
    let path = packageRoot + "/" + relativePath
    let lines = try readFile(path).split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.drop { $0 == " " }.hasPrefix("@DelegateProxy") }) else {
        throw FileError(path: path)
    }
    let closing = String(lines[start].prefix { $0 == " " }) + "}"
    guard let end = lines[start...].firstIndex(where: { String($0) == closing }) else { throw FileError(path: path) }
    return lines[start...end].joined(separator: "\n")
}

#endif
