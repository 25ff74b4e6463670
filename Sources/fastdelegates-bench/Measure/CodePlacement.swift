import CCodePlacement

/// A fixed amount of code run once before a runner's timed loop: each conforming type makes the
/// loop that a runner generic over it specializes into a copy of its own, at its own address.
///
/// The loop's instructions are the same in every copy; the pads of 80, 160 and 240 bytes move it
/// that far from the start of its function, one to three cache lines on and 16 to 48 bytes into
/// a line (where each function itself starts is the linker's choice).
protocol CodeShift {
    /// The pad: code of this shift's size, inlined before the loop.
    static func pad()
}

/// The loop where the build put it.
enum CodeShift0: CodeShift {
    @inline(__always) static func pad() {}
}

/// The loop 80 bytes further on.
enum CodeShift80: CodeShift {
    @inline(__always) static func pad() { code_placement_pad_80() }
}

/// The loop 160 bytes further on.
enum CodeShift160: CodeShift {
    @inline(__always) static func pad() { code_placement_pad_160() }
}

/// The loop 240 bytes further on.
enum CodeShift240: CodeShift {
    @inline(__always) static func pad() { code_placement_pad_240() }
}

/// Chooses a type parameter of ``CodeShift`` for the copy of a runner to make.
protocol CodeShiftChoice {
    associatedtype Made
    /// Makes the copy of the runner whose loop `shift` places.
    func make<Shift: CodeShift>(_ shift: Shift.Type) -> Made
}

/// Which copies of its timed loop each tick variant runs in a worker process: the code's
/// placement, as ``Placement`` is the data's.
///
/// On the AMD EPYC of issue 46, how often a variant ran at a slow level followed the build's
/// code layout: one build put the proxy's method where it ran 1.15–1.90× the baseline. So each
/// process measures each tick variant in ``copiesPerProcess`` copies, each a runner of its own
/// (with its own data pad), and pools their samples (``Measurement/pooling(_:)``): its median is
/// taken over four placements of the code, not over the one a build drew. (What the copies left
/// there are levels that no placement, data layout or CPU decided: `docs/bench-schema.md`.)
///
/// Worker `w` runs variant `v`'s copies `start, start + 1, …` (mod ``copies``), from
/// `start = w + offset(v) + shift(v)`: with fewer copies than ``copies`` per process, the workers
/// take them in turn, each variant from its own starting copy (a stable hash of its name), and
/// `shift` moves one variant's loop deliberately (`--shift-code`).
struct CodePlacement: Equatable {
    /// How many copies each tick runner's loop has.
    static let copies = 4

    /// The copy that the runners made now use (set by the harness around each variant's `make`).
    @TaskLocal static var current = 0

    /// Copies each process runs of each tick variant, 1 to ``copies``.
    var copiesPerProcess: Int = CodePlacement.copies
    /// The worker process's index.
    var worker = 0
    /// Copies to move each named variant's start by (`--shift-code VARIANT=COPIES`).
    var shift: [String: Int] = [:]

    /// One copy of each variant per process.
    static let single = CodePlacement(copiesPerProcess: 1)

    /// The copies that `variant` runs in this worker.
    func copies(for variant: String) -> [Int] {
        let start = worker + Self.offset(of: variant) + (shift[variant] ?? 0)
        return (0..<copiesPerProcess).map { (start + $0) % Self.copies }
    }

    /// A stable hash of `name` (FNV-1a), the same in every process and build, reduced to a copy.
    static func offset(of name: String) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return Int(hash % UInt64(copies))
    }

    /// Timed samples of each copy when a process takes `total` of each variant: its share, at
    /// least 2, so that the pooled samples number about `total`.
    static func samplesPerCopy(total: Int, copies: Int) -> Int {
        max(2, (total + copies - 1) / max(1, copies))
    }

    /// Makes, with `choice`, the runner of copy ``current``.
    static func make<Choice: CodeShiftChoice>(_ choice: Choice) -> Choice.Made {
        switch current % copies {
        case 1: choice.make(CodeShift80.self)
        case 2: choice.make(CodeShift160.self)
        case 3: choice.make(CodeShift240.self)
        default: choice.make(CodeShift0.self)
        }
    }

    /// Parses `VARIANT=COPIES` (as `--shift-code` takes it); nil when malformed.
    static func parseShift(_ text: String) -> (variant: String, copies: Int)? {
        Placement.parseExtra(text).map { ($0.variant, $0.bytes) }
    }
}
