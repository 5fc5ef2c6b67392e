// A still decoded in a helper, from the parent's side: the helper started over the still's
// open descriptor and a fresh memory file, waited for, and its ending turned into the still —
// or into the still's one-line refusal when it died, hit a limit, or answered with garbage.

import CFFmpeg
import CPlatform
import Foundation
import Glibc

/// Decodes stills (and reads `probe`'s facts) in a decode helper.
enum IsolatedDecode {
    /// The still `file`, decoded in a helper.
    /// - Parameters:
    ///   - format: what the still is, for messages ("SVG").
    ///   - raster: for an SVG: the frame it is shown in, so it is drawn at the size it is shown.
    ///   - isCancelled: polled while the helper runs; once it says yes the helper is killed.
    /// - Throws: `MediaError`: `.unavailable` when no helper is set up or it cannot start;
    ///   `.inputInvalid` for a still refused (by the decoder, or because the helper died), or
    ///   stopped; whatever kind the decoder in the helper refused it with.
    static func still(_ file: InputFile, format: String, raster: StillDecoder.Raster?,
                      isCancelled: () -> Bool) throws(MediaError) -> DecodedStill {
        try run(.still, file: file, format: format, raster: raster, isCancelled: isCancelled) { (reply, answer, size) throws(MediaError) in
            try reply.still(mappedFrom: answer, size: size, path: file.path)
        }
    }

    /// What `probe` says of `file`, read in a helper.
    static func facts(_ file: InputFile, format: String) throws(MediaError) -> MediaInfo {
        try run(.probe, file: file, format: format, raster: nil, isCancelled: { false }) { (reply, _, _) throws(MediaError) in
            try reply.mediaInfo(path: file.path)
        }
    }

    /// Refuses a still of `format` (decoded only in a helper) when no helper is set up, as a
    /// decode would; a dry run asks this instead of starting one.
    /// - Throws: `MediaError(.unavailable)` naming the setting that sets one up.
    static func requireHelper(path: String, format: String) throws(MediaError) {
        if DecodeHelper.current.executable == nil { throw noHelper(path: path, format: format) }
    }

    private static func noHelper(path: String, format: String) -> MediaError {
        MediaError(.unavailable, subject: path,
                   message: "is \(format), which slicevid decodes only in a decode helper process, and none is set up (Slicevid.decodeHelper: a slicevid executable)")
    }

    private static func run<T>(_ task: HelperRequest.Task, file: InputFile, format: String, raster: StillDecoder.Raster?,
                               isCancelled: () -> Bool,
                               read: (HelperReply, Int32, Int) throws(MediaError) -> T) throws(MediaError) -> T {
        let path = file.path
        let configuration = DecodeHelper.current
        guard let executable = configuration.executable else { throw noHelper(path: path, format: format) }
        let stopped = MediaError(.inputInvalid, subject: path, message: "not decoded: the run was stopped")
        if isCancelled() { throw stopped }
        let answer = cplatform_memory_file("slicevid-answer")
        guard answer >= 0 else { throw MediaError.outOfMemory(subject: path) }
        defer { close(answer) }
        let request = HelperRequest(task: task, path: path, raster: raster, parent: getpid(), limits: configuration.limits,
                                    stall: configuration.stalls)
        let (ending, standardError) = try HelperProcess.run(executable, request: request, input: file.descriptor, answer: answer,
                                                            isCancelled: isCancelled)
        let decoder = StillRoute.decoderName(format)
        FFmpegLog.passOn(standardError, from: "decode helper")
        switch ending {
        case .stopped:
            throw stopped
        case .exited(0):
            var info = stat()
            guard fstat(answer, &info) == 0, info.st_size > 0, info.st_size <= Int64(Int.max / 2) else {
                throw HelperReply.garbage(path, "nothing")
            }
            // Sealed before it is read: nothing the helper left behind can change or shrink it now.
            guard cplatform_seal(answer) == 0 else { throw HelperReply.garbage(path, "a file still open for writing") }
            let size = Int(info.st_size)
            guard let reply = HelperReply.read(from: answer, size: size) else { throw HelperReply.garbage(path, "a malformed header") }
            if let refusal = reply.refusal(path: path) { throw refusal }
            return try read(reply, answer, size)
        case .exited(DecodeHelper.notConfined):
            throw MediaError(.unavailable, subject: path, message: "could not be decoded: its decode helper could not set its limits")
        case .exited(let code):
            if isCancelled() { throw stopped }
            throw MediaError(.inputInvalid, subject: path, message: "could not be decoded: \(decoder) failed (its helper exited with \(code))\(reason(standardError))")
        case .signalled(let signal):
            if isCancelled() { throw stopped }
            throw MediaError(.inputInvalid, subject: path,
                             message: "could not be decoded: \(decoder) \(death(signal, limits: configuration.limits))\(reason(standardError))")
        }
    }

    /// What a signal that ended the helper says happened.
    private static func death(_ signal: Int32, limits: HelperLimits) -> String {
        switch signal {
        case SIGABRT: "aborted"
        case SIGXCPU: "used more than its \(limits.cpuSeconds) s of CPU time"
        case SIGKILL: "was killed (SIGKILL)"
        case SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE:
            "crashed (\(signalName(signal)); it may have needed more than its \(limits.addressSpaceDescription) of memory)"
        default: "was ended by \(signalName(signal))"
        }
    }

    private static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGFPE: "SIGFPE"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }

    /// The line of the helper's standard error that says why it died (a Rust panic, a failed
    /// assertion, an allocation that failed), quoted; "" when it said nothing of the kind.
    static func reason(_ standardError: [UInt8]) -> String {
        let text = String(decoding: standardError, as: UTF8.self)
        let markers = ["panicked at", "Assertion", "assertion failed", "memory allocation", "out of memory", "Fatal error", "fatal error"]
        guard var line = text.split(whereSeparator: \.isNewline).first(where: { line in markers.contains { line.contains($0) } }) else {
            return ""
        }
        // Rust: thread '<unnamed>' panicked at 'assertion failed: h >= 0.0', src/text.rs:360:9
        if let start = line.range(of: "panicked at '")?.upperBound, let end = line[start...].range(of: "',")?.lowerBound {
            line = line[start..<end]
        }
        return " (\(FFmpegLog.quoted(String(line))))"
    }
}
