// Help that fits the terminal, as swift-argument-parser lays it out: each option's label, then
// its help wrapped to the width with a hanging indent, so no line runs past the right edge.

import Glibc

/// Laying out help text in columns.
enum HelpText {
    /// The width help is wrapped to: the terminal's (standard output's), or 80 when standard
    /// output is not a terminal (a pipe, a file, `man`), never narrower than 40.
    static func width() -> Int {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return max(40, Int(size.ws_col))
    }

    /// An option's lines: `label` then `text` from `column` on, wrapped to `width`; the text
    /// starts on the next line when the label reaches the column.
    static func entry(_ label: String, _ text: String, column: Int, width: Int) -> [String] {
        let indent = String(repeating: " ", count: column)
        let body = words(text, width: max(20, width - column))
        guard let first = body.first else { return [label] }
        if label.count + 2 > column { return [label] + body.map { indent + $0 } }
        return [label + String(repeating: " ", count: column - label.count) + first] + body.dropFirst().map { indent + $0 }
    }

    /// `line` wrapped to `width`, continuation lines indented like the line itself (two more
    /// when it starts a list item, `1.` or `-`).
    static func wrapped(_ line: String, width: Int) -> [String] {
        guard line.count > width else { return [line] }
        let leading = line.prefix { $0 == " " }
        let content = line.dropFirst(leading.count)
        let item = content.first.map { "-*".contains($0) } == true || content.prefix { $0.isNumber }.count > 0 && content.drop { $0.isNumber }.first == "."
        let hanging = String(leading) + (item ? "   " : "")
        let body = words(String(content), width: max(20, width - hanging.count))
        return body.enumerated().map { index, piece in (index == 0 ? String(leading) : hanging) + piece }
    }

    /// `text` broken between words into lines of at most `width` characters. A word longer
    /// than that (a list of curve names, `ease-{in,out,in-out}-{quad,…}`) is broken after its
    /// commas; one without a comma gets a line of its own.
    static func words(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            for (index, piece) in pieces(of: word, width: width).enumerated() {
                let joint = index == 0 ? " " : ""
                if line.isEmpty {
                    line = String(piece)
                } else if line.count + joint.count + piece.count <= width {
                    line += joint + piece
                } else {
                    lines.append(line)
                    line = String(piece)
                }
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `word` whole when it fits `width`, else cut after each comma, so its parts can be
    /// placed on lines of their own.
    private static func pieces(of word: Substring, width: Int) -> [Substring] {
        guard word.count > width else { return [word] }
        var pieces: [Substring] = []
        var start = word.startIndex
        for index in word.indices where word[index] == "," {
            let end = word.index(after: index)
            pieces.append(word[start..<end])
            start = end
        }
        if start < word.endIndex { pieces.append(word[start...]) }
        return pieces
    }
}
