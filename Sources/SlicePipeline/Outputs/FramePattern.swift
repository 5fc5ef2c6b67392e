// A PNG sequence's printf pattern (`frames/%05d.png`) taken apart: which file frame N goes to,
// and which names in its folder the pattern could have written.

import Foundation
import SliceKit
import SliceMedia

/// The frame names of a sequence output (`frames/%05d.png`): `prefix`, the frame number
/// zero-padded to `width`, `suffix`, in `folder`. Parsed once, where the output is given
/// (`Output.Destination.frames`); everything below takes the parsed pattern.
public struct FramePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as given (`frames/%05d.png`), which messages name.
    public let pattern: String
    let folder: String
    let prefix: String
    let suffix: String
    /// The least number of digits (`%05d` → 5, `%d` → 1); longer numbers are not cut.
    let width: Int

    /// A PNG sequence's pattern: one printf frame number (`%d`, `%05d`) in the file name, no
    /// other `%`, and `.png`; nil for anything else.
    public init?(_ pattern: String) {
        guard OutputFormat(path: pattern) == .pngSequence else { return nil }
        self.init(parsing: pattern)
    }

    /// Parses the last path component of `pattern`; nil when it holds no `%d`-style number.
    private init?(parsing pattern: String) {
        let url = URL(fileURLWithPath: pattern)
        let name = url.lastPathComponent
        guard let percent = name.lastIndex(of: "%"), let d = name[percent...].firstIndex(of: "d") else { return nil }
        self.pattern = pattern
        folder = url.deletingLastPathComponent().path
        prefix = String(name[..<percent])
        suffix = String(name[name.index(after: d)...])
        width = max(1, Int(name[name.index(after: percent)..<d]) ?? 1)
    }

    private init(pattern: String, folder: String, prefix: String, suffix: String, width: Int) {
        self.pattern = pattern
        self.folder = folder
        self.prefix = prefix
        self.suffix = suffix
        self.width = width
    }

    public var description: String { pattern }

    /// The same frame names in another folder (a sequence's temporary folder, its folder with
    /// every link resolved).
    func inFolder(_ other: String) -> FramePattern {
        let name = URL(fileURLWithPath: pattern).lastPathComponent
        return FramePattern(pattern: other + "/" + name, folder: other, prefix: prefix, suffix: suffix, width: width)
    }

    /// The file name (without the folder) of frame `index`.
    func name(_ index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits + suffix
    }

    /// The full path of frame `index`.
    func path(_ index: Int) -> String { folder + "/" + name(index) }

    /// The frame number `name` stands for, when the pattern could have written it (`%05d`
    /// matches five or more digits, as printf pads); nil otherwise.
    func index(of name: String) -> Int? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count >= prefix.count + suffix.count + width else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // Written numbers are padded to the width and never carry other leading zeros.
        guard digits.count == width || digits.first != "0" else { return nil }
        return Int(digits)
    }

    /// The names in the folder the pattern could have written, with their frame numbers, in
    /// frame order.
    func existing() -> [(index: Int, name: String)] {
        let files = FileSystem.names(inFolder: folder) ?? []
        return files.compactMap { name in index(of: name).map { (index: $0, name: name) } }.sorted { $0.index < $1.index }
    }

    /// Whether some file name could be written by both patterns (`a%d.png` and `a%03d.png`
    /// share `a100.png`; `a%d.png` and `a1%d.png` share `a10.png`). Folders are compared as
    /// given: resolve them first.
    func overlaps(_ other: FramePattern) -> Bool {
        guard folder == other.folder else { return false }
        // One pattern's fixed text may stand where the other writes digits, on either end.
        func compatible(_ a: String, _ b: String, fromStart: Bool) -> Bool {
            let (short, long) = a.count <= b.count ? (a, b) : (b, a)
            guard fromStart ? long.hasPrefix(short) : long.hasSuffix(short) else { return false }
            let extra = fromStart ? long.dropFirst(short.count) : long.dropLast(short.count)
            return extra.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return compatible(prefix, other.prefix, fromStart: true) && compatible(suffix, other.suffix, fromStart: false)
    }
}
