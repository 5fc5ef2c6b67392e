// A line for the user with the settings and outputs it names kept apart from its words, so the
// front end that read them can name them its own way: the command line says `--background`
// and `-o clip.mp4`, a manifest `background` and `output clip.mp4`, a preset its key. Lower
// layers build these with string interpolation (`"\(setting: .fps) must be …"`) and never spell
// a flag.

/// One line of an error, with the settings and outputs it mentions.
public struct ErrorText: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// A run of words, or something each front end names its own way.
    public enum Piece: Sendable, Equatable {
        case text(String)
        /// A setting, named as the thing to change (`--background`; `background`).
        case setting(Setting)
        /// A setting, named by where its value came from (`background of preset 'house'`).
        case origin(Setting)
        /// An output, by its path (`-o clip.mp4`; `output clip.mp4`).
        case output(String)
        /// The output to standard output, as the front end names it (`-o -`).
        case standardOutput
    }

    /// The line, piece by piece.
    public private(set) var pieces: [Piece]

    public init(_ pieces: [Piece]) {
        var interpolation = StringInterpolation(literalCapacity: 0, interpolationCount: pieces.count)
        for piece in pieces { interpolation.append(piece) }
        self.pieces = interpolation.pieces
    }

    public init(stringLiteral value: String) {
        pieces = [.text(value)]
    }

    /// Plain words, naming nothing a front end words differently.
    public init(_ text: String) {
        pieces = [.text(text)]
    }

    /// One line after the other.
    public static func + (lhs: ErrorText, rhs: ErrorText) -> ErrorText { ErrorText(lhs.pieces + rhs.pieces) }

    public init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    /// Builds the pieces of an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { append(.text(literal)) }

        public mutating func appendInterpolation<T>(_ value: T) { append(.text(String(describing: value))) }

        public mutating func appendInterpolation(_ value: String) { append(.text(value)) }

        /// Another line, its pieces kept.
        public mutating func appendInterpolation(_ text: ErrorText) { text.pieces.forEach { append($0) } }

        public mutating func appendInterpolation(setting: Setting) { append(.setting(setting)) }

        public mutating func appendInterpolation(origin: Setting) { append(.origin(origin)) }

        public mutating func appendInterpolation(output path: String) { append(.output(path)) }

        /// The output to standard output.
        public mutating func appendInterpolation(standardOutput: Void) { append(.standardOutput) }

        mutating func append(_ piece: Piece) {
            if case .text(let more) = piece, more.isEmpty { return }
            if case .text(let more) = piece, case .text(let text)? = pieces.last {
                pieces[pieces.count - 1] = .text(text + more)
            } else {
                pieces.append(piece)
            }
        }
    }

    /// The line in `wording`'s names.
    public func worded(_ wording: some Wording) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .setting(let setting): wording.name(setting)
            case .origin(let setting): wording.origin(setting)
            case .output(let path): wording.output(path)
            case .standardOutput: wording.standardOutput
            }
        }.joined()
    }

    /// The line with settings named by their keys: how presets, manifests and the library
    /// name them.
    public var description: String { worded(KeyWording()) }

    /// `items` one after another, `separator` between them.
    public static func joined(_ items: [ErrorText], separator: String) -> ErrorText {
        var pieces: [Piece] = []
        for (index, item) in items.enumerated() {
            if index > 0 { pieces.append(.text(separator)) }
            pieces += item.pieces
        }
        return ErrorText(pieces)
    }

    /// This line with `prefix` before it.
    public func prefixed(_ prefix: ErrorText) -> ErrorText { prefix + self }
}

/// How a front end names the settings and outputs an error mentions.
public protocol Wording: Sendable {
    /// The setting as the thing to change: `--fps` on the command line, `fps` in a file.
    func name(_ setting: Setting) -> String
    /// The setting by where its value came from; by default its name.
    func origin(_ setting: Setting) -> String
    /// An output: `-o clip.mp4` on the command line.
    func output(_ path: String) -> String
    /// The output to standard output: `-o -` on the command line.
    var standardOutput: String { get }
}

extension Wording {
    public func origin(_ setting: Setting) -> String { name(setting) }

    public var standardOutput: String { "standard output" }
}

/// Settings by their keys, outputs by their paths: the words of preset and manifest files,
/// and of the library.
public struct KeyWording: Wording {
    public init() {}

    /// A run's own settings are options of the call, not keys of a file: `the force option`.
    public func name(_ setting: Setting) -> String {
        switch setting.kind {
        case .run: "the \(setting.key) option"
        case .variable: "vars.\(setting.key)"
        default: setting.key
        }
    }

    public func output(_ path: String) -> String { "output \(path)" }
}
