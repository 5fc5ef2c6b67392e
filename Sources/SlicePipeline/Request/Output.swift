// One output of a render, typed: where it goes (a file, standard output, nowhere) and the
// encoding settings that are its own. Its format follows from the file's extension, checked when
// the output is made, so a request never holds an output it could not write.

import SliceKit
import SliceMedia

/// One output of a render.
public struct Output: Sendable, Equatable {
    /// Where the output goes.
    public enum Destination: Sendable, Equatable, Hashable {
        /// A file, or a PNG sequence's pattern (`frames/%05d.png`); its extension gives the
        /// format (.mp4, .webm, .mov, .mkv, .gif, .y4m, .png, .jpg, .webp).
        case file(String)
        /// YUV4MPEG2 on standard output, for a pipe into another program.
        case standardOutput
        /// Rendered but written nowhere (benchmarks and checks).
        case discard
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
            // The two names a command line gives a meaning keep their plain meaning here.
            let named = path == Output.standardOutputName || path == Output.discardName ? "./" + path : path
            guard let format = OutputFormat(path: named) else {
                throw SlicevidError(.usage, "\(output: path): \(OutputFormat.refusal(path))")
            }
            self.destination = .file(named)
            self.format = format
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

    /// The name the render's lower layers know this output by: its path, `-` for standard
    /// output, `null` for none.
    package var path: String {
        switch destination {
        case .file(let path): path
        case .standardOutput: Output.standardOutputName
        case .discard: Output.discardName
        }
    }

    /// The command-line spellings of the two outputs that are not files.
    package static let standardOutputName = "-"
    package static let discardName = "null"
}

extension Output {
    /// An output as `make -o` and a manifest's `outputs` write it: a path followed by its own
    /// options (`promo.webm:crf=32:preset=6`). `-` and `null` are standard output and nothing
    /// when `streams` allows them (the command line); a manifest's jobs write files.
    /// - Throws: `SlicevidError(.usage)` naming the output: a malformed option, an unknown
    ///   extension, or `-`/`null` where only files go.
    package init(parsing text: String, streams: Bool) throws(SlicevidError) {
        let argument: OutputArgument
        do {
            argument = try OutputArgument(parsing: text)
        } catch {
            throw SlicevidError(.usage, error.text)
        }
        try self.init(argument, streams: streams)
    }

    /// An output from its path and options, split already (a manifest's output, its
    /// placeholders filled in the path alone).
    /// - Throws: `SlicevidError(.usage)` naming the output: an unknown extension, or `-`/`null`
    ///   where only files go.
    package init(_ argument: OutputArgument, streams: Bool) throws(SlicevidError) {
        switch argument.path {
        case Output.standardOutputName where streams:
            try self.init(.standardOutput, settings: argument.settings)
        case Output.discardName where streams:
            try self.init(.discard, settings: argument.settings)
        case Output.standardOutputName, Output.discardName:
            throw SlicevidError(.usage, "\(InputText.quoted(argument.path)) is for slicevid make; a batch job writes files")
        default:
            try self.init(.file(argument.path), settings: argument.settings)
        }
    }
}
