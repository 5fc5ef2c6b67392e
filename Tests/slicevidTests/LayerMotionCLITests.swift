// Layer motion as a user meets it, measured on the frames written: a sliding name's centroid
// follows its easing frame by frame (to a fraction of a pixel), a `strips` entrance is cut in
// strips before it lands and exactly the still layer after, a dry run prints the resolved
// times (which follow the hold), the bytes do not change with -j, and every mistake is one line.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("layer motion on the command line", .timeLimit(.minutes(10)))
struct LayerMotionCLITests {
    static let grey = RGBAColor(red: 100, green: 100, blue: 100)
    static let plate = RGBAColor(red: 0xE3, green: 0x06, blue: 0x13)

    /// 320x180 at 10 fps: hold 0.3 s, transition 0.6 s (landed at 0.9 s), end hold 2 s.
    static let flags = ["--from", "a.png", "--to", "b.png", "--layout", "motion.json", "--size", "320x180", "--fps", "10",
                        "--hold", "0.3", "--duration", "0.6", "--end-hold", "2", "--slices", "16"]

    /// Two grey stills and `layers` as the layout.
    static func campaign(in folder: String, layers: String) throws {
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: grey), "a.png", in: folder)
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: grey), "b.png", in: folder)
        try writeFile(folder + "/motion.json", Data(#"{"layers": [\#(layers)]}"#.utf8))
    }

    /// How far a pixel is above the grey, in green: the text's weight there.
    static func weight(_ frame: PlanarImage, _ x: Int, _ y: Int) -> Double {
        max(0, Double(frame.planes[0].row(y)[x]) - Double(grey.green))
    }

    /// The weighted centroid's row of everything brighter than the grey.
    static func centroidY(_ frame: PlanarImage) -> Double {
        var (sum, mass) = (0.0, 0.0)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let w = weight(frame, x, y)
                sum += w * (Double(y) + 0.5)
                mass += w
            }
        }
        return sum / mass
    }

    @Test("a sliding name's centroid follows its easing frame by frame, to a fraction of a pixel")
    func slideFollowsItsEasing() throws {
        try withScratchFolder { folder in
            // 150 px at 1080p is 25 px at 180p.
            try Self.campaign(in: folder, layers: """
                {"on": "over", "name": "name", "text": "Flat White", "box": [0.1, 0.4, 0.8, 0.2], "size": 120, "color": "#FFFFFF",
                 "in": {"at": "landed", "effect": "slide-up", "distance": 150, "duration": 1.2, "easing": "ease-in-out"}}
                """)
            let run = try CLI.make(Self.flags + ["-o", "frames/%03d.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frames = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrp)
            try #require(frames.count == 30)
            let rest = Self.centroidY(frames[29])
            var checked = 0
            for (index, frame) in frames.enumerated() {
                let elapsed = Double(index) / 10 - 0.9
                let progress = Easing.cubicBezier(.easeInOut).progress(elapsed: elapsed, duration: 1.2)
                // Faint frames (the fade's first tenth) have too few levels to weigh.
                guard progress > 0.15 else {
                    // In the hold and once landed, the grey is untouched (in between, the strips move).
                    if index < 3 || index == 9 { #expect(frame.planes[0].row(90)[160] == Self.grey.green, "frame \(index) shows the name before it arrives") }
                    continue
                }
                let expected = rest + 25 * (1 - progress)
                #expect(abs(Self.centroidY(frame) - expected) < 0.2, "frame \(index): centroid \(Self.centroidY(frame)), expected \(expected)")
                checked += 1
            }
            #expect(checked >= 15)
        }
    }

    @Test("over a transparent clip the moving layer's alpha slides too: its centroid follows the easing")
    func transparentOutput() throws {
        try withScratchFolder { folder in
            let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
            _ = try Still.write(RGBAImage(width: 160, height: 90, color: clear), "a.png", in: folder)
            _ = try Still.write(RGBAImage(width: 160, height: 90, color: clear), "b.png", in: folder)
            try writeFile(folder + "/motion.json", Data(##"""
                {"layers": [{"on": "over", "text": "Flat White", "box": [0.1, 0.4, 0.8, 0.2], "size": 120, "plate": "#E30613",
                 "in": {"at": "landed", "effect": "slide-left", "distance": 300, "duration": 1.2, "easing": "ease-out-back"}}]}
                """##.utf8))
            let run = try CLI.make(Self.flags + ["--background", "transparent", "-o", "frames/%03d.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frames = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrap)
            try #require(frames.count == 30)
            func centroidX(_ frame: PlanarImage) -> Double {
                var (sum, mass) = (0.0, 0.0)
                for y in 0..<frame.height {
                    for x in 0..<frame.width {
                        let a = Double(frame.planes[3].row(y)[x])
                        sum += a * (Double(x) + 0.5)
                        mass += a
                    }
                }
                return sum / mass
            }
            let rest = centroidX(frames[29])
            // 300 px at 1080p is 50 px at 180p; slide-left comes in from the right, overshooting.
            for index in 11..<30 {
                let progress = try Easing(parsing: "ease-out-back").progress(elapsed: Double(index) / 10 - 0.9, duration: 1.2)
                let expected = rest + 50 * (1 - progress)
                #expect(abs(centroidX(frames[index]) - expected) < 0.2, "frame \(index): \(centroidX(frames[index])), expected \(expected)")
            }
            #expect(frames[8].planes[3].row(90)[160] == 0, "before it arrives, the frame is clear")
        }
    }

    @Test("a strips entrance is cut in strips before it lands, and exactly the still layer after")
    func stripsEntrance() throws {
        try withScratchFolder { folder in
            let layer = ##"{"on": "over", "name": "price", "text": "2,49 €", "box": [0.3, 0.4, 0.4, 0.2], "color": "#FFFFFF", "plate": "#E30613""##
            try Self.campaign(in: folder, layers: layer + #", "in": {"at": "landed", "effect": "strips", "duration": 0.8}}"#)
            #expect(try CLI.make(Self.flags + ["-o", "moving/%03d.png"], in: folder).status == 0)
            try writeFile(folder + "/motion.json", Data(#"{"layers": [\#(layer)}]}"#.utf8))
            #expect(try CLI.make(Self.flags + ["-o", "still/%03d.png"], in: folder).status == 0)
            let moving = try MediaReader.frames(path: folder + "/moving/%03d.png", layout: .gbrp)
            let still = try MediaReader.frames(path: folder + "/still/%03d.png", layout: .gbrp)
            try #require(moving.count == 30 && still.count == 30)
            // The box is x 96…224, y 72…108.
            func plateRows(_ frame: PlanarImage, column: Int) -> [Int] {
                (0..<frame.height).filter { Pixels.isClose(Pixels.color(frame, column, $0), Self.plate, within: 30) }
            }
            // Mid-flight (landed + 0.3 s): neighbouring strips of the plate sit at different heights.
            let flying = moving[12]
            let tops = stride(from: 100, through: 220, by: 20).map { plateRows(flying, column: $0).first ?? -1 }
            #expect(Set(tops).count > 2, "the plate is not cut in strips: \(tops)")
            // From landed + 0.8 s on: the still layer, byte for byte.
            for index in 17..<30 { #expect(Pixels.maximumError(moving[index], still[index]) == 0, "frame \(index) differs from the still layer") }
            // Before landed: nothing of it.
            #expect(plateRows(moving[8], column: 160).isEmpty)
        }
    }

    @Test("a poster shows the layer as it is at the poster's time, mid-slide")
    func posterAtItsTime() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder, layers: """
                {"on": "over", "text": "Flat White", "box": [0.1, 0.4, 0.8, 0.2], "size": 120,
                 "in": {"at": "landed", "effect": "slide-up", "distance": 150, "duration": 1}}
                """)
            let run = try CLI.make(Self.flags + ["-o", "frames/%03d.png", "-o", "poster.png", "--poster-at", "1.3"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frames = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrp)
            let poster = try #require(try MediaReader.frames(path: folder + "/poster.png", layout: .gbrp).first)
            try #require(frames.count == 30)
            #expect(Pixels.maximumError(poster, frames[13]) == 0, "the poster is not the frame at 1.3 s")
            #expect(Self.centroidY(poster) > Self.centroidY(frames[29]) + 2, "at 1.3 s the name is still below its place")
        }
    }

    @Test("--dry-run prints each moving layer's resolved times, and a longer hold moves them")
    func dryRunTimes() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder, layers: """
                {"on": "over", "name": "name", "text": "Flat White", "box": [0.1, 0.4, 0.8, 0.2],
                 "in": {"at": "landed+0.1", "effect": "slide-up", "duration": 0.5, "easing": "spring(damping: 0.8)"},
                 "out": {"at": "end-0.4", "effect": "fade"}}
                """)
            let dry = try CLI.make(Self.flags + ["-o", "clip.mp4", "--dry-run"], in: folder)
            #expect(dry.status == 0 && dry.stderr.contains(
                "\nslicevid: dry run: layer 'name': shows 1–2.9 s; in slide-up 1–1.5 s (at landed+0.1, spring); out fade 2.5–2.9 s (at end-0.4, ease-in)\n"),
                "\(dry)")
            let longer = Self.flags.map { $0 == "0.3" ? "1.3" : $0 }
            let later = try CLI.make(longer + ["-o", "clip.mp4", "--dry-run"], in: folder)
            #expect(later.stderr.contains("layer 'name': shows 2–3.9 s; in slide-up 2–2.5 s"), "\(later)")
        }
    }

    @Test("the bytes are the same with -j 1 and -j 2 while layers move")
    func determinism() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder, layers: """
                {"on": "over", "text": "Flat White", "box": [0.1, 0.4, 0.8, 0.2], "in": {"at": "transition", "effect": "pop", "duration": 0.8}},
                {"on": "over", "text": "2,49 €", "box": [0.3, 0.7, 0.4, 0.2], "plate": "#E30613", "in": {"at": "landed", "effect": "strips"},
                 "out": {"at": "end-0.6", "effect": "wipe-left"}}
                """)
            #expect(try CLI.make(Self.flags + ["-o", "one.mp4", "-o", "one.webm", "-j", "1"], in: folder).status == 0)
            #expect(try CLI.make(Self.flags + ["-o", "two.mp4", "-o", "two.webm", "-j", "2"], in: folder).status == 0)
            for ext in ["mp4", "webm"] {
                #expect(FileManager.default.contents(atPath: "\(folder)/one.\(ext)") == FileManager.default.contents(atPath: "\(folder)/two.\(ext)"),
                        "\(ext) differs with -j")
            }
        }
    }

    @Test("every mistake is one line, 64, naming the key and what is accepted", arguments: [
        (#""in": {"effect": "spin"}"#, "layers[0].in.effect: 'spin' is not an effect; expected one of fade, slide-up"),
        (#""in": {"at": "step 3 landed"}"#, "in.at: step 3 landed names a step the clip does not have; it has 1 step"),
        (#""out": {"effect": "fade", "duration": -1}"#, "layers[0].out.duration: expected a number 0…3600"),
    ])
    func refusals(_ motion: String, _ words: String) throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder, layers: #"{"on": "over", "text": "x", "box": [0, 0, 1, 1], \#(motion)}"#)
            let before = FolderSnapshot(folder)
            for dry in [false, true] {
                let run = try CLI.make(Self.flags + ["-o", "clip.mp4"] + (dry ? ["--dry-run"] : []), in: folder)
                #expect(run.status == 64 && run.stderrIsOneLine && run.stderr.contains(words), "\(run)")
                #expect(FolderSnapshot(folder) == before)
            }
        }
    }
}
