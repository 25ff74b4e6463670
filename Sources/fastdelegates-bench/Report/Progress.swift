import Foundation

/// The progress line, on standard error only (never mixed into the report).
enum Progress {
    nonisolated(unsafe) private static var active = false
    private static let interactive = isatty(STDERR_FILENO) != 0
    /// Put before every progress line (a worker process's name).
    nonisolated(unsafe) static var prefix = ""

    /// Replaces the progress line (or prints a new line when stderr is not a terminal).
    static func update(_ text: String) {
        write(interactive ? "\r\u{1B}[K" + prefix + text : prefix + text + "\n")
        active = interactive
    }

    /// Ends the progress line.
    static func finish() {
        if active { write("\n") }
        active = false
    }

    /// A message on its own line.
    static func note(_ text: String) {
        finish()
        write("fastdelegates-bench: " + text + "\n")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
