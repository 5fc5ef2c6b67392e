// Contrast as the render sees it, told the same way before a frame is drawn: an over layer shown
// only while the strips fly is measured on those frames (the strips open black gaps under white
// text), and `make --dry-run`, `batch --check`, `batch --plan` and the render say the same line,
// or refuse with it (65). What is under a layer counts: a card's band printed before its text,
// an over band drawn before over text, a band on every card (flying with its strips) under over
// text.

import Foundation
import SliceKit
import Testing

@Suite("contrast measured where a layer is read", .timeLimit(.minutes(10)))
struct ContrastCLITests {
    /// White text over the strips of two white stills (frames 4…8 of 10; t 0.4…0.8 s).
    static let duringStrips = ##"{"contrast": {"refuse": false}, "layers": [{"name": "name", "on": "over", "start": 0.35, "end": 0.85, "text": "Flat White", "box": [0.1, 0.3, 0.8, 0.4], "color": "#FFFFFF"}]}"##

    /// Each warning line about contrast from its frame size on (a batch names the layout by
    /// its full path).
    static func contrastLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").filter { $0.contains("warning: ") && $0.contains("contrast") }.compactMap { line in
            line.range(of: " at 320x180: ").map { String(line[$0.lowerBound...]) }
        }
    }

    @Test("an over layer shown only during the strips is measured there; --dry-run, batch --check, batch --plan and the render tell the same line")
    func stripsMeasuredAndAllAgree() throws {
        try withScratchFolder { folder in
            try ReadableCLITests.campaign(Self.duringStrips, in: folder)
            let render = try CLI.make(ReadableCLITests.flags + ["-o", "clip.mp4"], in: folder)
            #expect(render.status == 0, "\(render)")
            let told = Self.contrastLines(render.stderr)
            #expect(told.count == 1 && told[0].hasPrefix(" at 320x180: layer 'name': contrast 1.00:1"), "\(render)")
            // The frame named is one of the strips' (4…8): the layer shows on no other.
            let frame = told.first.flatMap { line in line.range(of: "at frame ").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) } }
            #expect(frame.map { (4...8).contains($0) } ?? false, "\(told)")

            let dry = try CLI.make(ReadableCLITests.flags + ["-o", "dry.mp4", "--dry-run"], in: folder)
            #expect(dry.status == 0 && Self.contrastLines(dry.stderr) == told, "\(dry)")
            // The frames measured are shared among the render's threads: any number tells the same.
            for jobs in ["1", "3"] {
                let spread = try CLI.make(ReadableCLITests.flags + ["-o", "dry.mp4", "--dry-run", "--jobs", jobs], in: folder)
                #expect(spread.status == 0 && Self.contrastLines(spread.stderr) == told, "--jobs \(jobs): \(spread)")
            }

            let job = #"{"images": ["white.png", "white.png"], "layout": "layout.json", "size": "320x180", "fps": 10, "hold": 0.3, "duration": 0.6, "slices": 8"#
            try writeFile(folder + "/campaign.json", Data(#"{"jobs": [\#(job), "id": "a", "outputs": ["a.mp4"]}]}"#.utf8))
            for flag in ["--check", "--plan"] {
                let batch = try CLI.run(["batch", "campaign.json", flag], in: folder)
                #expect(batch.status == 0 && Self.contrastLines(batch.stderr) == told, "\(flag): \(batch)")
            }

            // Where the layout refuses, each refuses with that line (65); nothing is written.
            try writeFile(folder + "/layout.json", Data(Self.duringStrips.replacingOccurrences(of: #""refuse": false"#, with: #""refuse": true"#).utf8))
            let before = FolderSnapshot(folder)
            let refused = try CLI.make(ReadableCLITests.flags + ["-o", "refused.mp4"], in: folder)
            let refusedDry = try CLI.make(ReadableCLITests.flags + ["-o", "refused.mp4", "--dry-run"], in: folder)
            let said = told.first.map { String($0.dropFirst(" at 320x180: ".count)) } ?? "?"
            for run in [refused, refusedDry] {
                #expect(run.status == 65 && run.stderrIsOneLine && run.stderr.contains("layout 'layout.json': " + said), "\(run)")
            }
            #expect(FolderSnapshot(folder) == before, "something was written")
        }
    }

    /// A band (a small white dot at its top on a black scrim filling its box, the whole frame, so
    /// strips carry it everywhere) and white text in part of it.
    static func banded(band: String, name: String) -> String {
        ##"{"layers": [{"name": "band", "on": "\##(band)", "text": "·", "size": 12, "valign": "top", "box": [0, 0, 1, 1], "color": "#FFFFFF", "scrim": {"opacity": 1}},"## +
            ##" {"name": "name", "on": "\##(name)", "text": "Flat White", "box": [0.1, 0.6, 0.8, 0.2], "color": "#FFFFFF"}]}"##
    }

    @Test("white text on a black band printed or drawn before it is measured on the band and passes; without the band it warns",
          arguments: [("to", "to"), ("over", "over"), ("all", "over")])
    func layersUnderCount(_ band: String, _ name: String) throws {
        try withScratchFolder { folder in
            try ReadableCLITests.campaign(Self.banded(band: band, name: name), in: folder)
            let onBand = try CLI.make(ReadableCLITests.flags + ["-o", "band.mp4"], in: folder)
            #expect(onBand.status == 0 && Self.contrastLines(onBand.stderr).isEmpty, "\(band)/\(name): \(onBand)")
            let dry = try CLI.make(ReadableCLITests.flags + ["-o", "dry.mp4", "--dry-run"], in: folder)
            #expect(dry.status == 0 && Self.contrastLines(dry.stderr).isEmpty, "\(band)/\(name): \(dry)")
            // The control: the same text with no band under it.
            try writeFile(folder + "/layout.json", Data(Self.banded(band: band, name: name).replacingOccurrences(of: #""opacity": 1"#, with: #""opacity": 0"#).utf8))
            let bare = try CLI.make(ReadableCLITests.flags + ["-o", "bare.mp4"], in: folder)
            #expect(Self.contrastLines(bare.stderr).contains { $0.contains("layer 'name': contrast 1.00:1") }, "\(band)/\(name): \(bare)")
        }
    }

    @Test("an over layer over a moving still is measured on the moved picture: a push-in that spreads the dark half under black text warns, the still at rest does not")
    func movingStillMeasured() throws {
        try withScratchFolder { folder in
            // Left half black, right half white; black text over the white half, white between the strips.
            var halves = RGBAImage(width: 320, height: 180, color: RGBAColor(red: 255, green: 255, blue: 255))
            for y in 0..<180 { for x in 0..<160 { for c in 0..<3 { halves.pixels[4 * (y * 320 + x) + c] = 0 } } }
            _ = try Still.write(halves, "halves.png", in: folder)
            try writeFile(folder + "/layout.json", Data(##"{"layers": [{"name": "name", "text": "Flat White", "box": [0.55, 0.3, 0.4, 0.4], "color": "#000000"}]}"##.utf8))
            let flags = ["--from", "halves.png", "--to", "halves.png", "--layout", "layout.json", "--size", "320x180", "--fps", "10",
                         "--hold", "0.3", "--duration", "0.6", "--slices", "8", "--background", "#FFFFFF"]
            let still = try CLI.make(flags + ["-o", "still.mp4"], in: folder)
            #expect(still.status == 0 && Self.contrastLines(still.stderr).isEmpty, "\(still)")
            // Zooming toward the dark half's middle moves its edge (x 0.5) to 0.75 by the end.
            let moving = try CLI.make(flags + ["--motion", "push-in", "--motion-amount", "1", "--focus", "0.25,0.5", "-o", "moving.mp4"], in: folder)
            let told = Self.contrastLines(moving.stderr)
            #expect(moving.status == 0 && told.count == 1 && told.first?.contains("layer 'name': contrast") == true, "\(moving)")
            // Not at frame 0: the move has not begun there.
            #expect(told.first?.contains("at frame 0 ") == false, "\(told)")
        }
    }
}
