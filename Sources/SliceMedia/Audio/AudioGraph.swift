// One libavfilter audio graph, owned: abuffer → a filter description → abuffersink, in the order
// FFmpeg's doc/examples/filter_audio.c builds one. The music bed, its loudness measurement and
// each encoder's framing are all graphs of this shape; only the description differs.

import CAVFilter
import CFFmpeg

/// An audio filter graph with one input and one output.
///
/// Not thread-safe: one owner feeds and pulls it.
final class AudioGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    /// What errors name: the audio file.
    let subject: String
    /// Polled by `run` before each frame it feeds: a long bed stops within a frame of a signal.
    private let isCancelled: () -> Bool

    /// What a graph is fed: every frame alike.
    struct Input {
        var sampleRate: Int
        var sampleFormat: AVSampleFormat
        /// The channel layout as abuffer reads it back exactly: a native layout's mask
        /// (`0x3`), else FFmpeg's name for it (`3 channels`).
        var layout: String

        /// `channels` in their default layout.
        init(sampleRate: Int, channels: Int, sampleFormat: AVSampleFormat = AV_SAMPLE_FMT_FLTP) {
            var layout = AVChannelLayout()
            av_channel_layout_default(&layout, Int32(channels))
            defer { av_channel_layout_uninit(&layout) }
            self.init(sampleRate: sampleRate, sampleFormat: sampleFormat, layout: Self.name(of: &layout))
        }

        /// What `frame` is.
        init(of frame: Frame) {
            let f = frame.pointer
            self.init(sampleRate: Int(f.pointee.sample_rate), sampleFormat: AVSampleFormat(rawValue: f.pointee.format),
                      layout: Self.name(of: &f.pointee.ch_layout))
        }

        private init(sampleRate: Int, sampleFormat: AVSampleFormat, layout: String) {
            (self.sampleRate, self.sampleFormat, self.layout) = (sampleRate, sampleFormat, layout)
        }

        private static func name(of layout: UnsafePointer<AVChannelLayout>) -> String {
            // A mask names every native layout, even one with speakers FFmpeg has no name for
            // (a WAV's mask may set any of 32 bits), and never runs past a buffer.
            if layout.pointee.order == AV_CHANNEL_ORDER_NATIVE { return "0x" + String(layout.pointee.u.mask, radix: 16) }
            var name = [CChar](repeating: 0, count: 1024)
            av_channel_layout_describe(layout, &name, name.count)
            return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Whether abuffer can be told `layout` exactly: a native or unordered layout, or one
        /// whose name reads back as itself (not a custom order with channels FFmpeg cannot name).
        static func isNameable(_ layout: UnsafePointer<AVChannelLayout>) -> Bool {
            let order = layout.pointee.order
            if order == AV_CHANNEL_ORDER_NATIVE || order == AV_CHANNEL_ORDER_UNSPEC { return true }
            var parsed = AVChannelLayout()
            defer { av_channel_layout_uninit(&parsed) }
            return av_channel_layout_from_string(&parsed, name(of: layout)) == 0 && av_channel_layout_compare(&parsed, layout) == 0
        }
    }

    /// Builds and configures the graph.
    /// - Parameters:
    ///   - description: the filters between input and output, in libavfilter's syntax.
    ///   - input: what will be fed (time base 1/sample rate).
    ///   - frameSize: samples per output frame (an encoder's frame size), or nil for any.
    ///   - isCancelled: polled by `run` before each frame it feeds; once it says yes, `run` stops.
    /// - Throws: `MediaError(.unavailable)` when libavfilter cannot be loaded;
    ///   `MediaError(.output)` naming the failing call (a description is ours, so a refusal
    ///   here is a fault, not bad input).
    init(description: String, input: Input, frameSize: Int? = nil, subject: String,
         isCancelled: @escaping () -> Bool = { false }) throws(MediaError) {
        self.subject = subject
        self.isCancelled = isCancelled
        try Self.requireLibrary()
        guard let made = slicevid_avfilter_graph_alloc() else { throw MediaError.outOfMemory(subject: subject) }
        graph = made
        // One thread: the graphs are small, and the same samples must come out whatever the machine.
        made.pointee.nb_threads = 1
        let format = av_get_sample_fmt_name(input.sampleFormat).map { String(cString: $0) } ?? "fltp"
        let arguments = "time_base=1/\(input.sampleRate):sample_rate=\(input.sampleRate):sample_fmt=\(format):channel_layout=\(input.layout)"
        var source: UnsafeMutablePointer<AVFilterContext>?
        var sink: UnsafeMutablePointer<AVFilterContext>?
        do {
            try check(slicevid_avfilter_graph_create_filter(&source, slicevid_avfilter_get_by_name("abuffer"), "in", arguments, nil, made),
                      "avfilter_graph_create_filter(abuffer)", subject: subject)
            try check(slicevid_avfilter_graph_create_filter(&sink, slicevid_avfilter_get_by_name("abuffersink"), "out", nil, nil, made),
                      "avfilter_graph_create_filter(abuffersink)", subject: subject)
        } catch {
            slicevid_avfilter_graph_free(&graph)
            throw error
        }
        guard let source, let sink else {
            slicevid_avfilter_graph_free(&graph)
            throw MediaError(.output, subject: subject, message: "cannot create the audio graph's ends")
        }
        self.source = source
        self.sink = sink
        // The description's open ends: its input is fed by "in", its output drains into "out".
        var outputs = slicevid_avfilter_inout_alloc()
        var inputs = slicevid_avfilter_inout_alloc()
        // parse_ptr replaces both lists with what it left unlinked; whatever they hold is freed.
        defer {
            slicevid_avfilter_inout_free(&outputs)
            slicevid_avfilter_inout_free(&inputs)
        }
        guard let opening = outputs, let closing = inputs else { throw MediaError.outOfMemory(subject: subject) }
        opening.pointee.name = av_strdup("in")
        opening.pointee.filter_ctx = source
        closing.pointee.name = av_strdup("out")
        closing.pointee.filter_ctx = sink
        try check(slicevid_avfilter_graph_parse_ptr(made, description, &inputs, &outputs, nil),
                  "avfilter_graph_parse_ptr(\(description))", subject: subject)
        try check(slicevid_avfilter_graph_config(made, nil), "avfilter_graph_config", subject: subject)
        if let frameSize { slicevid_av_buffersink_set_frame_size(sink, UInt32(frameSize)) }
    }

    /// Opens libavfilter on the first graph (it is not linked: see CAVFilter.h).
    /// - Throws: `MediaError(.unavailable)` naming the library and why it did not load.
    static func requireLibrary() throws(MediaError) {
        guard slicevid_avfilter_load() == 0 else { return }
        let why = String(cString: slicevid_avfilter_error())
        let soname = String(cString: slicevid_avfilter_soname())
        // Debian names the package after the library and its major version: libavfilter8.
        let package = soname.replacingOccurrences(of: ".so.", with: "")
        throw MediaError(.unavailable, subject: soname,
                         message: "audio needs this library, which did not load (\(FFmpegLog.quoted(why))); install \(package)")
    }

    deinit {
        slicevid_avfilter_graph_free(&graph)
    }

    /// Feeds one frame without taking it (the caller keeps its reference), or nil for the end.
    /// - Throws: `MediaError(.output)` naming `av_buffersrc_add_frame_flags`.
    func feed(_ frame: Frame?) throws(MediaError) {
        try check(slicevid_av_buffersrc_add_frame_flags(source, frame?.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)),
                  "av_buffersrc_add_frame_flags", subject: subject)
    }

    /// Takes the next filtered frame into `frame`.
    /// - Returns: `.ready`, `.needsInput` (feed more), or `.drained` after the end was fed.
    /// - Throws: `MediaError(.output)` for any other result.
    func pull(into frame: Frame) throws(MediaError) -> CodecContext.Received {
        let code = slicevid_av_buffersink_get_frame(sink, frame.pointer)
        if code >= 0 { return .ready }
        if code == AVStatus.again { return .needsInput }
        if code == AVStatus.endOfFile { return .drained }
        try check(code, "av_buffersink_get_frame", subject: subject)
        return .failed(code)
    }

    /// Passes `frames` (kept by the caller) through the graph and returns everything it gives.
    /// - Parameters:
    ///   - keep: whether to return the output frames; a caller that only looks at them in
    ///     `each` (a measurement, an encoder) does not hold a second copy of the audio.
    ///   - each: sees every output frame in order, before it is kept.
    /// - Throws: `MediaError.stopped` once the graph's `isCancelled` says yes.
    @discardableResult
    func run(_ frames: [Frame], keep: Bool = true, each: (Frame) throws(MediaError) -> Void = { _ in }) throws(MediaError) -> [Frame] {
        var output: [Frame] = []
        var next = frames.makeIterator()
        var ended = false
        while true {
            let frame = try Frame(subject: subject)
            switch try pull(into: frame) {
            case .ready:
                try each(frame)
                if keep { output.append(frame) }
            case .needsInput:
                guard !ended else { return output }
                if isCancelled() { throw MediaError.stopped(subject: subject) }
                if let input = next.next() { try feed(input) } else { try feed(nil); ended = true }
            case .drained, .failed:
                return output
            }
        }
    }
}
