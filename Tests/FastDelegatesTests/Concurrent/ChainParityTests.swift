import Foundation
import Testing

@testable import FastDelegates

/// `ConcurrentDelegateChain` has the API of `DelegateChain`: every public member of one has a
/// counterpart of the same name and argument labels in the other, unless it is listed here with
/// the reason. The members are read from the two types' source files.
@Suite("DelegateChain and ConcurrentDelegateChain have the same members")
struct ChainParityTests {
    /// Members of `DelegateChain` that `ConcurrentDelegateChain` leaves out on purpose, and why.
    static let onlyOnDelegateChain: [String: String] = [:]

    /// Members of `ConcurrentDelegateChain` that `DelegateChain` leaves out on purpose, and why.
    static let onlyOnConcurrentChain: [String: String] = [
        "hasFenceFreeSends": "how a send synchronizes with mutations across threads; DelegateChain has one thread",
        // A @DelegateProxy requirement's walk (the sends over it come with RequirementDispatching,
        // to which both chains conform): DelegateChain's stands beside the refresh of its
        // requirements' prepared messages, in Proxies/RequirementSends.swift, which this scan does not read.
        "forEachAnswer(toRequirement:_:_:)": "DelegateChain's is in RequirementSends.swift",
        "removeAwaitingCalls(_:isolation:)":
            "awaits async calls running on other tasks; a DelegateChain's removal takes effect at once on its one thread",
    ]

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The public members declared in the files of `folder` whose names start with `type`
    /// (`DelegateChain.swift`, `DelegateChain+Send.swift`, …), as `name(label:label:)`.
    static func members(of type: String, in folder: String) throws -> Set<String> {
        let directory = root.appendingPathComponent("Sources/FastDelegates/\(folder)")
        var members: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file == "\(type).swift" || file.hasPrefix("\(type)+") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            members.formUnion(publicMembers(in: text))
        }
        return members
    }

    /// `name(label:label:)` for each `public func`/`init`, `name` for each `public var`/`let`,
    /// type or typealias.
    static func publicMembers(in source: String) -> [String] {
        var found: [String] = []
        let characters = Array(source)
        var index = 0
        let keywords = ["func ", "init", "var ", "let ", "enum ", "struct ", "class ", "typealias "]
        while let range = source[String.Index(utf16Offset: index, in: source)...].range(of: "public ") {
            index = range.upperBound.utf16Offset(in: source)
            let rest = String(characters[index..<min(characters.count, index + 200)])
            guard let keyword = keywords.first(where: { rest.hasPrefix($0) }) else { continue }
            let afterKeyword = rest.dropFirst(keyword.trimmingCharacters(in: .whitespaces).count)
                .drop { $0 == " " }
            let name = String(afterKeyword.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            guard keyword == "func " || keyword == "init" else {
                found.append(name)
                continue
            }
            // The parameter list: from the first "(" after the name (and its generic clause).
            var cursor = index + keyword.count + name.count
            var angle = 0
            while cursor < characters.count {
                let character = characters[cursor]
                if character == "<" { angle += 1 }
                if character == ">" { angle -= 1 }
                if character == "(" && angle == 0 { break }
                cursor += 1
            }
            var depth = 0
            var parameters: [String] = []
            var current = ""
            while cursor < characters.count {
                let character = characters[cursor]
                cursor += 1
                if character == "(" || character == "<" || character == "[" {
                    depth += 1
                    if depth == 1 { continue }
                }
                if character == ")" || character == ">" || character == "]" {
                    depth -= 1
                    if depth == 0 {
                        parameters.append(current)
                        break
                    }
                }
                if character == "," && depth == 1 {
                    parameters.append(current)
                    current = ""
                    continue
                }
                current.append(character)
            }
            let labels = parameters.compactMap { parameter -> String? in
                let head = parameter.split(separator: ":", maxSplits: 1).first ?? ""
                let words = head.split(whereSeparator: { $0 == " " || $0 == "\n" })
                guard let label = words.first else { return nil }
                return "\(label):"
            }
            found.append("\(keyword == "init" ? "init" : name)(\(labels.joined()))")
        }
        return found
    }

    @Test func everyMemberOfDelegateChainHasAConcurrentCounterpart() throws {
        // Each chain's own members, and the `add`/`insert` overloads its registration protocol supplies.
        let plain = try Self.members(of: "DelegateChain", in: "Chain")
            .union(Self.members(of: "DelegateRegistering", in: "Registrations"))
        let concurrent = try Self.members(of: "ConcurrentDelegateChain", in: "Concurrent")
            .union(Self.members(of: "SendableDelegateRegistering", in: "Registrations"))
        // The parser works: it finds members both types are known to have.
        for known in ["add(_:retention:)", "remove(_:)", "send(_:_:)", "targets", "mode", "init(mode:)"] {
            #expect(plain.contains(known), "parser missed DelegateChain.\(known)")
            #expect(concurrent.contains(known), "parser missed ConcurrentDelegateChain.\(known)")
        }
        let missing = plain.subtracting(concurrent).subtracting(Self.onlyOnDelegateChain.keys)
        #expect(
            missing.isEmpty, "DelegateChain members without a ConcurrentDelegateChain counterpart: \(missing.sorted())")
        let extra = concurrent.subtracting(plain).subtracting(Self.onlyOnConcurrentChain.keys)
        #expect(extra.isEmpty, "ConcurrentDelegateChain members without a DelegateChain counterpart: \(extra.sorted())")
    }

    @Test func anyResponderIsEmptyAndCombinedAnswersOnTheConcurrentChain() {
        let log = Log()
        let a = Probe("a", log: log), b = Probe("b", log: log)
        let chain = ConcurrentDelegateChain()
        #expect(chain.isEmpty)
        chain.add(AnySendableResponder(a))
        chain.insert(AnySendableResponder(b), at: 0)
        #expect(!chain.isEmpty)
        #expect(chain.targets.map { ($0 as! Probe).name } == ["b", "a"])
        chain.send(Scroll.didScroll, 2)
        #expect(log.events == ["b.didScroll(2)", "a.didScroll(2)"])
        #expect(chain.send(Scroll.heightForHeader, 1, combining: .all).count == 2)
        chain.removeAll()
        #expect(chain.isEmpty)
        withExtendedLifetime((a, b)) {}
    }

    /// Streams see the sends of every thread, and go away when they end.
    @Test func invocationsWorkFromAnyThread() async {
        let chain = ConcurrentDelegateChain()
        var seen: [Int] = []
        do {
            let stream = chain.invocations(of: Scroll.didScroll)
            #expect(chain.observerCount(of: Scroll.didScroll) == 1)
            runOnThreads(4) { thread in
                for value in 0..<250 { chain.send(Scroll.didScroll, thread * 1_000 + value) }
            }
            for await value in stream {
                seen.append(value)
                if seen.count == 1_000 { break }
            }
        }
        #expect(Set(seen).count == 1_000)
        for thread in 0..<4 {
            // Each thread's sends arrive in the order it made them.
            let mine = seen.filter { $0 / 1_000 == thread }
            #expect(mine == mine.sorted())
        }
        chain.send(Scroll.didScroll, 0) // the ended stream is dropped
        #expect(chain.observerCount(of: Scroll.didScroll) == 0)
        let observed = chain.observed.load(ordering: .relaxed)
        #expect(!observed)
    }
}
