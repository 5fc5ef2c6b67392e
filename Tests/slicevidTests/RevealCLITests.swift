// Typewriter, word and line reveals as a user meets them, measured on the frames written: a
// typewriter on Hindi and on Arabic never shows part of a glyph cluster (each cluster Pango
// shaped is, in every frame, either all there or not at all) and how many show follows the
// easing frame by frame; each word's and each line's ink follows its own staggered easing; a
// dry run prints the resolved times.

import Foundation
import SliceKit
import Testing
@testable import SliceMedia
@testable import SlicePipeline

@Suite("typewriter, words and lines on the command line", .timeLimit(.minutes(10)))
struct RevealCLITests {
    /// 640x360 at 20 fps, transparent: hold 0.3 s, transition 0.6 s (landed at 0.9 s), end hold 2 s.
    static let flags = ["--from", "a.png", "--to", "b.png", "--layout", "reveal.json", "--size", "640x360", "--fps", "20",
                        "--hold", "0.3", "--duration", "0.6", "--end-hold", "2", "--slices", "16", "--background", "transparent"]

    /// Two transparent stills and `layer` as the layout; the layer as the render resolves it,
    /// the engine's glyph clusters for it and the units the reveal shows.
    static func campaign(in folder: String, layer: String) throws -> (layer: LayoutPlan.Layer, glyphs: [GlyphCluster], units: RevealUnits) {
        let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: clear), "a.png", in: folder)
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: clear), "b.png", in: folder)
        let json = Data(#"{"layers": [\#(layer)]}"#.utf8)
        try writeFile(folder + "/reveal.json", json)
        let plan = try LayoutPlan.resolve(try Layout(json: json, file: "reveal.json", folder: folder), width: 640, height: 360, stills: 2,
                                          variables: [:], safeZones: [])
        let resolved = plan.layers[0]
        guard case .text(let text) = resolved.content else { throw CancellationError() }
        let glyphs = try TextRenderer.render(plan.textLayer(text, for: resolved)).glyphs
        let units = try #require(try plan.draw().pictures[0].units)
        return (resolved, glyphs, units)
    }

    static func alpha(_ frame: PlanarImage, _ x: Int, _ y: Int) -> Int { Int(frame.planes[3].row(y)[x]) }

    @Test("a typewriter never shows part of a cluster, and how many show follows the easing", arguments: [
        ("नमस्ते दुनिया, क्षत्रिय", "hi"),
        ("مرحبًا بالعالم، لا تقلق", "ar"),
    ])
    func typewriterWholeClusters(_ text: String, _ language: String) throws {
        try withScratchFolder { folder in
            let (layer, glyphs, units) = try Self.campaign(in: folder, layer: """
                {"on": "over", "text": "\(text)", "language": "\(language)", "box": [0.05, 0.3, 0.9, 0.4], "size": 110, "color": "#FFFFFF",
                 "in": {"at": "landed", "effect": "typewriter", "duration": 1.5, "easing": "ease-in-out"}}
                """)
            let run = try CLI.make(Self.flags + ["-o", "frames/%03d.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frames = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrap)
            try #require(frames.count > 50)
            let final = frames[frames.count - 1]
            // Each glyph cluster's pixels with ink once the text is whole.
            let inked: [(start: Int, pixels: [(Int, Int)])] = glyphs.sorted { $0.start < $1.start }.map { glyph in
                let columns = (layer.box.x + Int(glyph.x.rounded()))..<(layer.box.x + Int((glyph.x + glyph.width).rounded()))
                let rows = layer.box.y..<(layer.box.y + layer.box.height)
                return (glyph.start, columns.flatMap { x in rows.compactMap { y in Self.alpha(final, x, y) > 0 ? (x, y) : nil } })
            }.filter { !$0.pixels.isEmpty }
            #expect(inked.count >= 10, "\(inked.count) clusters with ink")
            // More code points than units: some clusters hold several (conjuncts, marks).
            #expect(text.unicodeScalars.count > units.clusters.count)
            var counts: Set<Int> = []
            for (index, frame) in frames.enumerated() {
                let elapsed = Double(index) / 20 - 0.9
                let progress = Easing.cubicBezier(.easeInOut).progress(elapsed: elapsed, duration: 1.5)
                // The share of the clusters due; where it falls on a whole number, the render's
                // clock (a hair off this one's) may round either way.
                let share = elapsed < 0 ? 0 : progress * Double(units.clusters.count)
                let due = Set([share - 1e-9, share + 1e-9].map { max(0, min(units.clusters.count, Int($0.rounded(.down)))) })
                counts.formUnion(due)
                var showing: [Bool] = []
                for cluster in inked {
                    let same = cluster.pixels.filter { Self.alpha(frame, $0.0, $0.1) == Self.alpha(final, $0.0, $0.1) }.count
                    let clear = cluster.pixels.filter { Self.alpha(frame, $0.0, $0.1) == 0 }.count
                    let whole = same == cluster.pixels.count, none = clear == cluster.pixels.count
                    #expect(whole || none, "frame \(index): the cluster at byte \(cluster.start) shows \(same) of its \(cluster.pixels.count) inked pixels")
                    if !(whole || none) { return }
                    showing.append(whole)
                }
                // Exactly the clusters of the first units due show.
                let expected = due.map { shown in
                    let bytes = shown == 0 ? 0 : units.clusters[shown - 1].bytes.upperBound
                    return inked.map { $0.start < bytes }
                }
                #expect(expected.contains(showing), "frame \(index): \(showing.filter { $0 }.count) clusters show, \(due.sorted()) units due")
            }
            #expect(counts.count >= 8, "only \(counts.sorted()) clusters counts seen")
        }
    }

    /// The alpha summed over `boxes` (in the layer's box) of `frame`.
    static func ink(_ frame: PlanarImage, _ boxes: [RevealUnits.Box], layer: LayoutPlan.Layer) -> Double {
        var sum = 0
        for box in boxes {
            for y in (layer.box.y + box.y0)..<(layer.box.y + box.y1) {
                for x in (layer.box.x + box.x0)..<(layer.box.x + box.x1) { sum += alpha(frame, x, y) }
            }
        }
        return Double(sum)
    }

    @Test("each word's and each line's ink follows its own easing, one stagger after the one before", arguments: [
        (#"Fresh beans, roasted daily"#, "words", 0.25),
        (#"Fresh beans\nroasted daily\nin Leeds"#, "lines", 0.4),
    ])
    func staggeredUnits(_ text: String, _ effect: String, _ stagger: Double) throws {
        try withScratchFolder { folder in
            let (layer, _, units) = try Self.campaign(in: folder, layer: """
                {"on": "over", "text": "\(text)", "box": [0.05, 0.1, 0.9, 0.8], "size": 90, "color": "#FFFFFF", "plate": "#E30613",
                 "in": {"at": "landed", "effect": "\(effect)", "stagger": \(stagger), "duration": 0.5, "easing": "ease-out"}}
                """)
            let list = effect == "words" ? units.words : units.lines
            #expect(list.count == (effect == "words" ? 4 : 3))
            let run = try CLI.make(Self.flags + ["-o", "frames/%03d.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frames = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrap)
            let final = frames[frames.count - 1]
            let whole = list.map { Self.ink(final, $0.boxes, layer: layer) }
            #expect(whole.allSatisfy { $0 > 0 })
            var partial = 0
            for (index, frame) in frames.enumerated() {
                for (k, unit) in list.enumerated() {
                    let elapsed = Double(index) / 20 - 0.9 - Double(k) * stagger
                    let expected = Double(index) / 20 < 0.9 ? 0 : Easing.cubicBezier(.easeOut).progress(elapsed: elapsed, duration: 0.5)
                    let measured = Self.ink(frame, unit.boxes, layer: layer) / whole[k]
                    #expect(abs(measured - expected) < 0.01, "frame \(index), \(effect) \(k): ink \(measured), expected \(expected)")
                    if expected > 0.05 && expected < 0.95 { partial += 1 }
                }
            }
            #expect(partial >= 2 * list.count, "too few frames mid-fade: \(partial)")
            let dry = try CLI.make(Self.flags + ["-o", "clip.webm", "--dry-run"], in: folder)
            let word = effect == "words" ? "word" : "line"
            #expect(dry.stderr.contains("in \(effect)(stagger \(stagger.shortText)) 0.9–1.4 s the first \(word), one more every \(stagger.shortText) s (at landed, ease-out)"),
                    "\(dry)")
        }
    }

    @Test("each word sliding up: its ink's centroid follows its own easing frame by frame, a stagger after the word before")
    func wordsSlideIn() throws {
        try withScratchFolder { folder in
            // 120 px at 1080p is 40 px at 360p.
            let (layer, _, units) = try Self.campaign(in: folder, layer: """
                {"on": "over", "text": "Fresh beans daily", "box": [0.05, 0.3, 0.9, 0.3], "size": 90, "color": "#FFFFFF",
                 "in": {"at": "landed", "effect": "words", "stagger": 0.3, "duration": 0.8, "each": "slide-up", "distance": 120, "easing": "ease-in-out"}}
                """)
            #expect(units.words.count == 3)
            let run = try CLI.make(Self.flags + ["-o", "frames/%03d.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frames = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrap)
            /// The alpha-weighted centroid's row of what lies in the columns of word `k`'s boxes.
            func centroidY(_ frame: PlanarImage, _ k: Int) -> (y: Double, mass: Double) {
                var (sum, mass) = (0.0, 0.0)
                for box in units.words[k].boxes {
                    for x in (layer.box.x + box.x0)..<(layer.box.x + box.x1) {
                        for y in 0..<frame.height {
                            let a = Double(Self.alpha(frame, x, y))
                            (sum, mass) = (sum + a * (Double(y) + 0.5), mass + a)
                        }
                    }
                }
                return (sum / max(mass, 1), mass)
            }
            let final = frames[frames.count - 1]
            var checked = 0
            for (index, frame) in frames.enumerated() {
                for k in 0..<3 {
                    let progress = Easing.cubicBezier(.easeInOut).progress(elapsed: Double(index) / 20 - 0.9 - Double(k) * 0.3, duration: 0.8)
                    // Faint frames (the fade's first fifth) have too few levels to weigh.
                    guard progress > 0.2 else {
                        #expect(centroidY(frame, k).mass < centroidY(final, k).mass * 0.22, "frame \(index): word \(k) shows before its time")
                        continue
                    }
                    let expected = centroidY(final, k).y + 40 * (1 - progress)
                    #expect(abs(centroidY(frame, k).y - expected) < 0.25, "frame \(index), word \(k): centroid \(centroidY(frame, k).y), expected \(expected)")
                    if progress < 1 { checked += 1 }
                }
            }
            #expect(checked >= 20, "only \(checked) frames mid-slide")
        }
    }

    @Test("the bytes are the same with -j 1 and -j 3 while text is revealed")
    func determinism() throws {
        try withScratchFolder { folder in
            _ = try Self.campaign(in: folder, layer: """
                {"on": "over", "text": "नमस्ते दुनिया", "box": [0.05, 0.1, 0.9, 0.3], "in": {"at": "transition", "effect": "typewriter", "duration": 1}},
                {"on": "over", "text": "Fresh beans, roasted daily", "box": [0.05, 0.6, 0.9, 0.3], "plate": "#E30613",
                 "in": {"at": "landed", "effect": "words", "easing": "spring(damping: 0.6)"}}
                """)
            let flags = Self.flags.filter { $0 != "--background" && $0 != "transparent" }
            #expect(try CLI.make(flags + ["-o", "one.webm", "-j", "1"], in: folder).status == 0)
            #expect(try CLI.make(flags + ["-o", "three.webm", "-j", "3"], in: folder).status == 0)
            let one = FileManager.default.contents(atPath: folder + "/one.webm"), three = FileManager.default.contents(atPath: folder + "/three.webm")
            #expect(one != nil && one == three, "the bytes differ with -j")
        }
    }

    @Test("a reveal on an image layer, a reveal leaving, a negative stagger: one line, 64, naming the key", arguments: [
        (#"{"on": "over", "image": "a.png", "box": [0, 0, 1, 1], "in": {"effect": "typewriter"}}"#, "layers[0].in.effect: typewriter reveals text, and this is an image layer"),
        (#"{"on": "over", "text": "x", "box": [0, 0, 1, 1], "out": {"effect": "words"}}"#, "layers[0].out.effect: words is an entrance"),
        (#"{"on": "over", "text": "x", "box": [0, 0, 1, 1], "in": {"effect": "lines", "stagger": -1}}"#, "layers[0].in.stagger: expected a number 0…60"),
    ])
    func refusals(_ layer: String, _ words: String) throws {
        try withScratchFolder { folder in
            _ = try? Self.campaign(in: folder, layer: layer)
            let run = try CLI.make(Self.flags + ["-o", "clip.webm"], in: folder)
            #expect(run.status == 64 && run.stderrIsOneLine && run.stderr.contains(words), "\(run)")
        }
    }
}
