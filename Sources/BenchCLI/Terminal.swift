import Foundation

/// Progress and colour, only where a person is watching: on a terminal, and colour never with NO_COLOR.
struct Terminal {
    let progressEnabled: Bool
    let colourEnabled: Bool

    init(quiet: Bool) {
        let errorIsTerminal = isatty(STDERR_FILENO) == 1
        progressEnabled = !quiet && errorIsTerminal
        colourEnabled = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Rewrites the progress line on standard error.
    func progress(_ text: String) {
        guard progressEnabled else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }

    func clearProgress() {
        guard progressEnabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }

    /// The width to wrap text at: the terminal's, when standard output is one; else `COLUMNS`, else 100.
    var width: Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return max(60, Int(size.ws_col))
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            return max(60, columns)
        }
        return 100
    }

    func warning(_ text: String) -> String {
        colourEnabled ? "\u{1B}[1;31m\(text)\u{1B}[0m" : text
    }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    // What was printed before comes first, when both go to one file (`2>&1`): stdout is buffered.
    fflush(nil)  // every output stream: stdout is the one that buffers
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
