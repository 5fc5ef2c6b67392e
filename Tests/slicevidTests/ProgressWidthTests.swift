// On a terminal the progress line is redrawn in place, so it must never wrap: every redraw is
// cut to the terminal's width (read with TIOCGWINSZ). Run under a pseudo-terminal of a given
// width (util-linux `script`, `stty cols`), the way a user's terminal runs it.

import Foundation
import SliceKit
import Testing

@Suite("progress fits the terminal", .serialized, .timeLimit(.minutes(10)))
struct ProgressWidthTests {
    /// What `slicevid arguments` writes to a terminal `columns` wide.
    private func onTerminal(columns: Int, _ arguments: [String], in folder: String) throws -> String {
        let command = "stty cols \(columns) rows 24; exec " + ([try CLI.binary()] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try CLI.run(["-qec", command, "/dev/null"], in: folder, executable: "/usr/bin/script")
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    /// The redraws in a terminal's output: what follows each `\r ESC[K` up to the next, when it
    /// is not a whole line (lines kept in the log end in a newline, and may wrap like any).
    private func redraws(_ output: String) -> [String] {
        output.components(separatedBy: "\r\u{1B}[K").dropFirst().filter { !$0.contains("\n") && !$0.isEmpty }
    }

    @Test("make's bar is cut to the width, at every width from 20", arguments: [20, 33, 80])
    func makeFits(columns: Int) throws {
        try withScratchFolder { folder in
            let output = try onTerminal(columns: columns, ["make"] + tinyClip + ["-o", "a-rather-long-output-name-for-a-narrow-terminal.mp4"], in: folder)
            let drawn = redraws(output)
            #expect(!drawn.isEmpty, "\(output.debugDescription)")
            for line in drawn {
                #expect(InputText.columns(of: line) <= columns - 1, "\(columns) columns: \(line.debugDescription)")
            }
            #expect(drawn.contains { $0.contains("finishing encoders") } || columns < 40, "\(drawn)")
        }
    }

    @Test("batch's line with long job ids is cut to the width", arguments: [20, 80])
    func batchFits(columns: Int) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let ids = (0..<4).map { "summer-campaign-\($0)-\(String(repeating: "long-id-", count: 6))" }
        let manifest = try folder.campaign(jobs: ids.map { ["id": $0, "images": ["s0.png", "s1.png"], "outputs": ["out/\($0.prefix(20)).mp4"]] })
        let output = try onTerminal(columns: columns, ["batch", manifest, "--log-format", "progress"], in: folder.path)
        let drawn = redraws(output)
        #expect(!drawn.isEmpty, "\(output.debugDescription)")
        for line in drawn { #expect(InputText.columns(of: line) <= columns - 1, "\(columns) columns: \(line.debugDescription)") }
    }

    @Test("a longer render shows an ETA from the measured rate, then the encoders' finishing phase")
    func etaAndFinishing() throws {
        try withScratchFolder { folder in
            let flags = tinyClip(["--size": "320x180", "--fps": "30", "--duration": "2", "--encoder-preset": "slow"]) + ["-j", "1", "-o", "a.webm"]
            let drawn = redraws(try onTerminal(columns: 120, ["make"] + flags, in: folder))
            #expect(drawn.contains { $0.wholeMatch(of: /\[[#-]{30}\] \d+% \d+\/67 frames · ETA \d+ s/) != nil }, "\(drawn)")
            #expect(drawn.last?.hasSuffix("100% · finishing encoders…") == true, "\(drawn)")
        }
    }
}
