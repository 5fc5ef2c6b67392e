// What a render prints: a redrawn bar on a terminal; on a log, a start line and a done line.

import Foundation
import SlicePipeline

/// Prints a render's progress to stderr.
final class ProgressReporter: Sendable {
    private let console: Console
    private let quiet: Bool

    init(console: Console, quiet: Bool) {
        self.console = console
        self.quiet = quiet
    }

    func handle(_ event: MakeEvent, request: MakeRequest) {
        guard !quiet else { return }
        switch event {
        case .started(let frames, let outputs):
            if !console.isTerminal {
                let spec = request.spec
                console.error("slicevid: rendering \(frames) frames, \(spec.width)x\(spec.height) at \(spec.frameRate) fps, to \(outputs.joined(separator: ", "))\n")
            }
        case .progress(let done, let total):
            let width = 30
            let filled = total == 0 ? width : done * width / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            console.status("[\(bar)] \(done * 100 / max(total, 1))% \(done)/\(total) frames", force: done == total)
        }
    }

    func finished(_ report: MakeReport, request: MakeRequest) {
        guard !quiet else { return }
        let seconds = String(format: "%.2f", report.seconds)
        for output in report.outputs {
            let what = switch output {
            case OutputTarget.discard: "rendered"
            case OutputTarget.standardOutput: "wrote y4m to stdout"
            default: "wrote \(output)"
            }
            console.error("slicevid: \(what) (\(report.frames) frames, \(seconds) s)\n")
        }
    }
}
