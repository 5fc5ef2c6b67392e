// What `slicevid make` prints to stderr as it renders: on a terminal a redrawn bar with the
// throughput's ETA and a "finishing encoders" phase; for cron a timestamped line per event; for
// log shippers a JSON object per event. With -q, only the error that ends a run.

import Foundation
import Slicevid
import Synchronization

/// Prints one make run's events.
final class MakeLog: Sendable {
    private let log: LogWriter
    /// When frames started to arrive, for the ETA.
    private let started = Mutex<ContinuousClock.Instant?>(nil)

    init(_ log: LogWriter) {
        self.log = log
    }

    func handle(_ event: MakeEvent, request: MakeRequest) {
        guard !log.quiet else { return }
        switch event {
        case .createdFolder(let folder):
            if log.format == .json { log.emit(["event": "folder-created", "path": folder]) } else { log.line("created folder \(folder)") }
        case .started(let frames, let outputs):
            started.withLock { $0 = .now }
            let spec = request.spec
            switch log.format {
            case .json:
                log.emit(["event": "started", "frames": frames, "size": "\(spec.width)x\(spec.height)",
                          "fps": spec.frameRate.description, "outputs": outputs.map(OutputSpelling.spelled)])
            case .plain:
                log.line("rendering \(frames) frames, \(spec.width)x\(spec.height) at \(spec.frameRate) fps, to \(outputs.map(OutputSpelling.spelled).joined(separator: ", "))")
            default:
                draw(done: 0, total: frames)
            }
        case .withoutAudio(let destinations):
            let outputs = destinations.map(OutputSpelling.spelled)
            if log.format == .json {
                log.emit(["event": "audio-ignored", "outputs": outputs])
            } else {
                log.line("no audio in \(outputs.joined(separator: ", ")): \(outputs.count == 1 ? "it carries" : "they carry") none")
            }
        case .audioReady(let loudness, let truePeak):
            if log.format == .json {
                log.emit(["event": "audio-ready", "loudness": loudness.map { ($0 * 10).rounded() / 10 } ?? NSNull(),
                          "true_peak": truePeak.map { ($0 * 10).rounded() / 10 } ?? NSNull()])
            } else {
                let level = loudness.map { String(format: ": %.1f LUFS, true peak %.1f dBTP", $0, truePeak ?? -.infinity) } ?? ""
                log.line("music bed ready\(level)")
            }
        case .progress(let done, let total):
            draw(done: done, total: total)
        case .warning(let warning):
            if log.format == .json { log.emit(["event": "warning", "message": warning.text]) } else { log.line("warning: \(warning.text)") }
        case .finishing:
            switch log.format {
            case .json: log.emit(["event": "finishing"])
            case .plain: log.line("finishing encoders")
            default: log.status("\(LogWriter.bar(1, 1, width: 30)) 100% · finishing encoders…", force: true)
            }
        }
    }

    /// The redrawn bar: percentage, frames, ETA from the frames per second measured so far.
    private func draw(done: Int, total: Int) {
        guard log.format == .progress else { return }
        let start = started.withLock { $0 } ?? .now
        let eta = LogWriter.eta(done: Double(done), total: Double(total), since: start).map { " · \($0)" } ?? ""
        log.status("\(LogWriter.bar(done, total, width: 30)) \(done * 100 / max(total, 1))% \(done)/\(total) frames\(eta)",
                   force: done == 0)
    }

    /// One `wrote` line (or event) per output as written, then the run's summary.
    func finished(_ report: MakeReport) {
        guard !log.quiet else { return }
        var written = report.written.makeIterator()
        for destination in report.outputs {
            switch destination {
            case .discard:
                if log.format == .json { log.emit(["event": "rendered", "frames": report.frames]) } else { log.line("rendered \(frames(report.frames)), wrote nothing") }
            case .standardOutput:
                // Its facts are in `written` too, in request order.
                _ = written.next()
                if log.format == .json {
                    log.emit(["event": "wrote", "path": OutputSpelling.standardOutput, "frames": report.frames])
                } else {
                    log.line("wrote y4m to stdout (\(frames(report.frames)))")
                }
            case .file, .frames:
                guard let output = written.next() else { continue }
                if log.format == .json {
                    log.emit(["event": "wrote", "path": output.path, "frames": output.frames, "fps": output.frameRate?.description ?? NSNull(),
                              "seconds": (output.seconds * 1000).rounded() / 1000, "bytes": output.bytes])
                } else {
                    log.line("wrote \(output.path) (\(MakeLog.describe(output)))")
                }
            }
        }
        if log.format == .json {
            log.emit(["event": "finished", "frames": report.frames, "clip_seconds": (report.clipSeconds * 1000).rounded() / 1000,
                      "took_seconds": (report.seconds * 1000).rounded() / 1000])
        } else {
            log.line("finished: \(frames(report.frames)), clip \(LogWriter.seconds(report.clipSeconds)), took \(LogWriter.seconds(report.seconds))")
        }
    }

    /// `61 frames, 2.03 s, 1.4 MB`; a still is `1 frame, 12.0 KB`.
    static func describe(_ output: WrittenOutput) -> String {
        let length = output.frameRate == nil ? "" : ", \(LogWriter.seconds(output.seconds))"
        return "\(output.frames == 1 ? "1 frame" : "\(output.frames) frames")\(length), \(LogWriter.size(output.bytes))"
    }

    private func frames(_ count: Int) -> String { count == 1 ? "1 frame" : "\(count) frames" }
}
