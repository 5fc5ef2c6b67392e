// Typewriter, word and line reveals as a layout writes them and as the render asks them: read
// strictly (64-style errors naming the key), units made from the engine's glyph clusters never
// smaller than a grapheme cluster, and the schedule's state: how many clusters show follows the
// easing, each word fades in one stagger after the other, and once the last is in the layer is
// drawn as prepared.

import Foundation
import SliceKit
import Testing

@Suite struct RevealTests {
    static func read(_ layer: String) throws(LayoutError) -> Layout {
        try Layout(json: Data(#"{"layers": [\#(layer)]}"#.utf8), file: "promo.json", folder: "/campaign")
    }

    @Test("typewriter, words and lines read as written, stagger included")
    func reading() throws {
        let layout = try Self.read(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"effect": "words", "stagger": 0.2, "duration": 0.3}}"#)
        guard case .over(let timing) = layout.layers[0].placement else { Issue.record("not over"); return }
        #expect(timing.entrance?.effect == .reveal(.word, stagger: 0.2, each: .fade))
        #expect(timing.entrance?.effect.description == "words(stagger 0.2)")
        let lines = try Self.read(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"effect": "lines"}}"#)
        guard case .over(let plain) = lines.layers[0].placement else { Issue.record("not over"); return }
        #expect(plain.entrance?.effect == .reveal(.line, stagger: 0.3, each: .fade) && plain.entrance?.effect.description == "lines")
        #expect(Layout.Effect(name: "typewriter") == .reveal(.cluster, stagger: 0, each: .fade))
        let sliding = try Self.read(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"effect": "lines", "each": "slide-up", "distance": 60}}"#)
        guard case .over(let slid) = sliding.layers[0].placement else { Issue.record("not over"); return }
        #expect(slid.entrance?.effect == .reveal(.line, stagger: 0.3, each: .slide(.up, distance: 60)))
        #expect(slid.entrance?.effect.description == "lines(each slide-up(distance 60))")
    }

    @Test("every mistake is one line naming the key and what is accepted", arguments: [
        (#""text": "x", "in": {"effect": "words", "stagger": -0.1}"#, "layers[0].in.stagger: expected a number 0…60"),
        (#""text": "x", "in": {"effect": "typewriter", "stagger": 0.1}"#, "layers[0].in.stagger: is for words and lines; a typewriter shares its duration"),
        (#""text": "x", "in": {"effect": "fade", "stagger": 0.1}"#, "layers[0].in.stagger: is for words and lines"),
        (#""text": "x", "out": {"effect": "typewriter"}"#, "layers[0].out.effect: typewriter is an entrance (give it in \"in\"); an exit is one of fade, slide-up"),
        (#""text": "x", "in": {"effect": "typewriter", "each": "slide-up"}"#, "layers[0].in.each: is for words and lines; a typewriter shows each cluster whole"),
        (#""text": "x", "in": {"effect": "words", "each": "spin"}"#, "layers[0].in.each: 'spin' is not one; expected one of fade, slide-up, slide-down, slide-left, slide-right"),
        (#""text": "x", "in": {"effect": "words", "distance": 30}"#, "layers[0].in.distance: is for slides (each: slide-up"),
        (#""text": "x", "in": {"effect": "fade", "each": "fade"}"#, "layers[0].in.each: is for words and lines"),
        (#""image": "logo.png", "in": {"effect": "typewriter"}"#, "layers[0].in.effect: typewriter reveals text, and this is an image layer"),
        (#""image": "logo.png", "in": {"effect": "lines"}"#, "layers[0].in.effect: lines reveals text, and this is an image layer"),
    ])
    func refusals(_ keys: String, _ words: String) {
        do {
            _ = try Self.read(#"{"on": "over", "box": [0, 0, 1, 1], \#(keys)}"#)
            Issue.record("accepted \(keys)")
        } catch {
            #expect(error.description.hasPrefix("'promo.json': ") && error.description.contains(words) && !error.description.contains("\n"), "\(error)")
        }
    }

    @Test("a layout built in code is held to the same checks")
    func builtInCode() {
        func layout(_ motion: Layout.Motion, exit: Bool = false, image: Bool = false) -> Layout {
            Layout(file: "code", layers: [Layout.Layer(name: "layer 1", placement: .over(exit ? Layout.Timing(exit: motion) : Layout.Timing(entrance: motion)),
                                                       box: Layout.Box(x: 0, y: 0, width: 1, height: 1),
                                                       content: image ? .image("logo.png") : .text(Layout.Text(template: "x")))])
        }
        #expect(throws: LayoutError.self) { try layout(Layout.Motion(effect: .reveal(.word, stagger: -1, each: .fade))).check() }
        #expect(throws: LayoutError.self) { try layout(Layout.Motion(effect: .reveal(.word, stagger: .nan, each: .fade))).check() }
        #expect(throws: LayoutError.self) { try layout(Layout.Motion(effect: .reveal(.cluster, stagger: 0, each: .fade)), exit: true).check() }
        #expect(throws: LayoutError.self) { try layout(Layout.Motion(effect: .reveal(.line, stagger: 0.3, each: .fade)), image: true).check() }
        #expect(throws: LayoutError.self) { try layout(Layout.Motion(effect: .reveal(.line, stagger: 0.3, each: .slide(.up, distance: .infinity)))).check() }
        #expect(throws: LayoutError.self) { try layout(Layout.Motion(effect: .reveal(.cluster, stagger: 0, each: .slide(.up, distance: 10)))).check() }
        #expect(throws: Never.self) { try layout(Layout.Motion(effect: .reveal(.line, stagger: 0.3, each: .slide(.left, distance: 10)))).check() }
    }

    /// Glyph clusters one after another on line 0, each `width` wide, starting at these bytes.
    static func glyphs(_ starts: [Int], width: Double = 10, line: Int = 0, top: Double = 0) -> [GlyphCluster] {
        starts.enumerated().map { GlyphCluster(start: $1, line: line, x: Double($0) * width, width: width, top: top, bottom: top + 20) }
    }

    @Test("a unit never ends inside a grapheme cluster: a letter and its combining mark, shaped apart, reveal together")
    func graphemesStayWhole() {
        // "e" + U+0301 (2 bytes) + "x": a font without the precomposed letter may give the mark
        // a cluster of its own; the reveal still shows "é" whole.
        let units = RevealUnits(text: "e\u{301}x", glyphs: Self.glyphs([0, 1, 3]), width: 30, height: 20)
        #expect(units.clusters.map(\.bytes) == [0..<3, 3..<4])
        #expect(units.clusters[0].boxes == [RevealUnits.Box(x0: 0, y0: 0, x1: 10, y1: 20), RevealUnits.Box(x0: 10, y0: 0, x1: 20, y1: 20)])
        // A ligature (one glyph cluster over two letters) is one unit.
        #expect(RevealUnits(text: "fix", glyphs: Self.glyphs([0, 2]), width: 20, height: 20).clusters.map(\.bytes) == [0..<2, 2..<3])
    }

    @Test("boxes tile each line, words keep their trailing spaces, lines are bands")
    func tiling() {
        // Two lines: "ab cd" and "ef", line 2 from y 20.
        let glyphs = Self.glyphs([0, 1, 2, 3, 4]) + Self.glyphs([6, 7], line: 1, top: 20)
        let units = RevealUnits(text: "ab cd\nef", glyphs: glyphs, width: 64, height: 50)
        #expect(units.clusters.count == 7)
        #expect(units.clusters[0].boxes[0].x0 == 0 && units.clusters[4].boxes[0].x1 == 64, "a line's first and last reach the box's sides")
        #expect(units.clusters[0].boxes[0].y0 == 0 && units.clusters[0].boxes[0].y1 == 20 && units.clusters[5].boxes[0].y1 == 50)
        #expect(units.words.map(\.bytes) == [0..<3, 3..<6, 6..<8])
        #expect(units.lines.map(\.boxes) == [[RevealUnits.Box(x0: 0, y0: 0, x1: 64, y1: 20)], [RevealUnits.Box(x0: 0, y0: 20, x1: 64, y1: 50)]])
    }

    static func moments() -> ClipMoments {
        var spec = TransitionSpec()
        spec.frameRate = FrameRate(10)
        spec.hold = 1
        spec.duration = 1
        spec.endHold = 3
        spec.strips = 8
        return ClipMoments(plan: SequencePlan(spec: SequenceSpec(base: spec, imageCount: 2)))
    }

    @Test("a typewriter shows the eased share of its clusters, rounded down, and is drawn as prepared once done")
    func typewriterCount() throws {
        let timing = Layout.Timing(entrance: Layout.Motion(at: Layout.Anchor(.landed(step: nil)), effect: .reveal(.cluster, stagger: 0, each: .fade), duration: 1.5,
                                                           easing: .cubicBezier(.easeInOut)))
        let schedule = try LayerSchedule(timing, moments: Self.moments())
        #expect(schedule.moves && schedule.reveals)
        for tenth in 20...36 {
            let time = Double(tenth) / 10
            let state = try #require(schedule.state(at: time))
            let progress = Easing.cubicBezier(.easeInOut).progress(elapsed: time - 2, duration: 1.5)
            if time >= 3.5 {
                #expect(state.reveal == nil && state.isStill, "at \(time) s the reveal is done")
            } else {
                let reveal = try #require(state.reveal)
                #expect(reveal.shown(of: 12) == Int((progress * 12).rounded(.down)), "at \(time) s")
                #expect((0..<12).map { reveal.presence(of: $0, count: 12) } == (0..<12).map { $0 < reveal.shown(of: 12) ? 1.0 : 0.0 })
            }
        }
    }

    @Test("each word fades in a stagger after the one before, with the layer's easing; done once the last is in")
    func wordStagger() throws {
        let timing = Layout.Timing(entrance: Layout.Motion(at: Layout.Anchor(.landed(step: nil)), effect: .reveal(.word, stagger: 0.25, each: .fade), duration: 0.5,
                                                           easing: .linear))
        let schedule = try LayerSchedule(timing, moments: Self.moments()).counting(units: 3)
        #expect(schedule.revealEnd == 3)
        let reveal = try #require(schedule.state(at: 2.4)?.reveal)
        #expect(abs(reveal.presence(of: 0, count: 3) - 0.8) < 1e-9 && abs(reveal.presence(of: 1, count: 3) - 0.3) < 1e-9)
        #expect(reveal.presence(of: 2, count: 3) == 0)
        #expect(schedule.state(at: 2.99)?.reveal != nil && schedule.state(at: 3)?.isStill == true)
        // Uncounted, it never claims to be done.
        #expect(try LayerSchedule(timing, moments: Self.moments()).state(at: 4)?.reveal != nil)
    }

    @Test("a revealed layer shows exactly the units' boxes at their presence, and nothing of the rest")
    func revealedPixels() throws {
        let picture = RGBA16Image(width: 40, height: 10, hasAlpha: true)
        for c in 0..<4 { for row in 0..<10 { for column in 0..<40 { picture.row(c, row)[column] = c == 3 ? 65535 : 30000 } } }
        let units = RevealUnits(text: "abcd", glyphs: Self.glyphs([0, 1, 2, 3]), width: 40, height: 10)
        let moving = try #require(MovingLayer(layer: picture, x: 5, y: 7, frameWidth: 100, frameHeight: 50, units: units))
        var state = LayerState()
        state.reveal = LayerState.Reveal(unit: .cluster, elapsed: 0.5, stagger: 0, duration: 1, easing: .linear)
        let pieces = moving.pieces(state)
        var shown: [Int] = []
        for piece in pieces {
            for row in 0..<piece.image.height {
                for column in 0..<piece.image.width where piece.image.row(3, row)[column] > 0 { shown.append(piece.x + column) }
            }
        }
        #expect(Set(shown) == Set(5..<25), "half of four clusters: columns 5…24 of the frame")
        state.reveal = LayerState.Reveal(unit: .word, elapsed: 0.25, stagger: 0, duration: 1, easing: .linear)
        let faded = moving.pieces(state)
        var samples: [UInt16] = []
        for piece in faded {
            for row in 0..<piece.image.height {
                for column in 0..<piece.image.width where piece.image.row(3, row)[column] > 0 {
                    samples += [piece.image.row(3, row)[column], piece.image.row(0, row)[column]]
                }
            }
        }
        #expect(samples.count == 2 * 400 && Set(samples) == [16384, 7500], "a quarter of the way in, the word is the layer at a quarter")
    }
}
