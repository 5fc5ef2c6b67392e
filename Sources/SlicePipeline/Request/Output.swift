// One output of a render, typed: where it goes (a file, standard output, nowhere) and the
// encoding settings that are its own. Its format follows from the file's extension, checked when
// the output is made, so a request never holds an output it could not write.

import SliceKit
import SliceMedia

/// One output of a render.
public struct Output: Sendable, Equatable {
    /// Where the output goes, parsed once: below the request nothing reads a path for what it
    /// names.
    public enum Destination: Sendable, Equatable, Hashable {
        /// A file; its extension gives the format (.mp4, .webm, .mov, .mkv, .gif, .y4m, .png,
        /// .jpg, .webp).
        case file(String)
        /// A PNG sequence, a file per frame (`frames/%05d.png`). A `.file` whose name is such a
        /// pattern becomes this when the output is made.
        case frames(FramePattern)
        /// YUV4MPEG2 on standard output, for a pipe into another program.
        case standardOutput
        /// Rendered but written nowhere (benchmarks and checks).
        case discard

        /// The file's path or the sequence's pattern, as given; nil for standard output and
        /// for nothing.
        public var path: String? {
            switch self {
            case .file(let path): path
            case .frames(let pattern): pattern.pattern
            case .standardOutput, .discard: nil
            }
        }

        /// A path as the file or the sequence it names: the one place a path's frame pattern
        /// is read.
        package init(path: String) {
            self = FramePattern(path).map(Destination.frames) ?? .file(path)
        }
    }

    public let destination: Destination
    /// This output's own settings: they override the run-wide ones and must fit it.
    public let settings: EncoderSettings
    /// The format written; nil for `.discard`.
    package let format: OutputFormat?

    /// - Throws: `SlicevidError(.usage)` for a file whose extension names no format slicevid
    ///   writes (or a broken sequence pattern), or an empty path.
    public init(_ destination: Destination, settings: EncoderSettings = EncoderSettings()) throws(SlicevidError) {
        switch destination {
        case .file(let path):
            guard !path.isEmpty else { throw SlicevidError(.usage, "\(setting: .outputs): an output path is empty") }
            guard let format = OutputFormat(path: path) else {
                throw SlicevidError(.usage, "\(output: path): \(OutputFormat.refusal(path))")
            }
            self.destination = Destination(path: path)
            self.format = format
        case .frames:
            self.destination = destination
            format = .pngSequence
        case .standardOutput:
            self.destination = destination
            format = .y4m
        case .discard:
            self.destination = destination
            format = nil
        }
        self.settings = settings
    }

    /// A file output.
    public static func file(_ path: String, settings: EncoderSettings = EncoderSettings()) throws(SlicevidError) -> Output {
        try Output(.file(path), settings: settings)
    }
}

extension Output {
    /// An output as `make -o` and a manifest's `outputs` write it: a path followed by its own
    /// options (`promo.webm:crf=32:preset=6`).
    /// - Parameter names: the paths the front end gives another meaning (the command line's
    ///   word for standard output); any other path is a file or a sequence.
    /// - Throws: `SlicevidError(.usage)` naming the output: a malformed option or an unknown
    ///   extension.
    package init(parsing text: String, names: [String: Destination] = [:]) throws(SlicevidError) {
        let argument: OutputArgument
        do {
            argument = try OutputArgument(parsing: text)
        } catch {
            throw SlicevidError(.usage, error.text)
        }
        try self.init(argument, names: names)
    }

    /// An output from its path and options, split already (a manifest's output, its
    /// placeholders filled in the path alone).
    package init(_ argument: OutputArgument, names: [String: Destination] = [:]) throws(SlicevidError) {
        try self.init(names[argument.path] ?? .file(argument.path), settings: argument.settings)
    }
}

extension ErrorText.StringInterpolation {
    /// An output as the front end names one (`-o clip.mp4`, `-o -`; `output clip.mp4`).
    package mutating func appendInterpolation(output destination: Output.Destination) {
        if destination == .standardOutput { appendInterpolation(standardOutput: ()) } else { appendInterpolation(output: destination.path ?? "") }
    }

    /// An output by its path alone (`clip.mp4`), or standard output as the front end names it.
    package mutating func appendInterpolation(named destination: Output.Destination) {
        if destination == .standardOutput { appendInterpolation(standardOutput: ()) } else { appendInterpolation(destination.path ?? "") }
    }
}
