// Layer motion as a layout writes it and as the render asks it: `in`/`out` read strictly,
// anchors resolved on the clip's own moments (so a longer hold moves the layer with the
// transition), the state each effect gives at a time, and a moved layer's pixels resampled at
// sub-pixel positions (measured, not looked at).

import Foundation
import SliceKit
import Testing

@Suite struct LayerMotionTests {
    static func read(_ layer: String) throws(LayoutError) -> Layout {
        try Layout(json: Data(#"{"layers": [\#(layer)]}"#.utf8), file: "promo.json", folder: "/campaign")
    }

    static func timing(_ layer: String) throws -> Layout.Timing {
        guard case .over(let timing) = try read(layer).layers[0].placement else { throw CancellationError() }
        return timing
    }

    /// A clip of `images` stills at 10 fps: each hold `hold`, each transition `duration`.
    static func moments(hold: Double = 1, duration: Double = 1, endHold: Double = 1, images: Int = 2) -> ClipMoments {
        var spec = TransitionSpec()
        spec.frameRate = FrameRate(10)
        spec.hold = hold
        spec.duration = duration
        spec.endHold = endHold
        spec.strips = 8
        return ClipMoments(plan: SequencePlan(spec: SequenceSpec(base: spec, imageCount: images)))
    }

    @Test("the issue's example reads as written")
    func issuesExample() throws {
        let timing = try Self.timing("""
            {"on": "over", "text": "{name}", "box": [0.06, 0.60, 0.88, 0.14],
             "in":  {"at": "landed+0.1", "effect": "slide-up", "duration": 0.5, "easing": "spring(damping: 0.8)"},
             "out": {"at": "end-0.4", "effect": "fade"}}
            """)
        #expect(timing.entrance == Layout.Motion(at: Layout.Anchor(.landed(step: nil), offset: 0.1), effect: .slide(.up, distance: 100), duration: 0.5,
                                                 easing: .uikitSpring(damping: 0.8, velocity: 0)))
        #expect(timing.exit == Layout.Motion(at: Layout.Anchor(.end, offset: -0.4), effect: .fade))
    }

    @Test("anchors: moments, steps, offsets either way, plain seconds", arguments: [
        ("landed+0.1", Layout.Anchor(.landed(step: nil), offset: 0.1)),
        ("step 2 transition - 0.25", Layout.Anchor(.transition(step: 2), offset: -0.25)),
        ("step 1 start", Layout.Anchor(.start(step: 1))),
        ("end", Layout.Anchor(.end)),
        ("1.5", Layout.Anchor.seconds(1.5)),
    ])
    func anchors(_ text: String, _ anchor: Layout.Anchor) throws {
        #expect(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"at": "\#(text)"}}"#).entrance?.at == anchor)
        // Printed back in a form read again the same.
        #expect(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"at": "\#(anchor)"}}"#).entrance?.at == anchor)
    }

    @Test("every mistake is one line naming the key and what is accepted", arguments: [
        (#""in": {"effect": "spin"}"#, "layers[0].in.effect: 'spin' is not an effect; expected one of fade, slide-up, slide-down, slide-left, slide-right, scale, pop, wipe, wipe-up"),
        (#""in": {"duration": -0.5}"#, "layers[0].in.duration: expected a number 0…3600"),
        (#""out": {"at": "landing+1"}"#, "layers[0].out.at: 'landing+1' is not an anchor; expected start, transition, landed or end"),
        (#""in": {"at": "step 0 landed"}"#, "layers[0].in.at: 'step 0 landed': steps are counted from 1"),
        (#""in": {"easing": "bouncy"}"#, "layers[0].in.easing:"),
        (#""in": {"effect": "fade", "distance": 20}"#, "layers[0].in.distance: is for slide effects"),
        (#""in": {"wobble": 1}"#, "layers[0].in.wobble: unknown field; accepted: at, effect, duration, easing, distance, from"),
        (#""start": 1, "in": {"at": "landed"}"#, "layers[0].start: goes with plain timing; with \"in\""),
        (#""fade-out": 1, "out": {}"#, "layers[0].fade-out: goes with plain timing; with \"out\""),
    ])
    func refusals(_ keys: String, _ words: String) {
        do {
            _ = try Self.read(#"{"text": "x", "box": [0, 0, 1, 1], \#(keys)}"#)
            Issue.record("accepted \(keys)")
        } catch {
            #expect(error.description.hasPrefix("'promo.json': ") && error.description.contains(words) && !error.description.contains("\n"), "\(error)")
        }
        // On a card, motion is refused: a card's layer flies with its strips.
        #expect(throws: LayoutError.self) { try Self.read(#"{"on": "to", "text": "x", "box": [0, 0, 1, 1], "in": {"effect": "fade"}}"#) }
    }

    @Test("a layout built in code is held to the same checks")
    func builtInCode() throws {
        let bad = Layout.Motion(effect: .slide(.up, distance: .nan))
        let layout = Layout(file: "code", layers: [Layout.Layer(name: "layer 1", placement: .over(Layout.Timing(entrance: bad)),
                                                                box: Layout.Box(x: 0, y: 0, width: 1, height: 1), content: .text(Layout.Text(template: "x")))])
        #expect(throws: LayoutError.self) { try layout.check() }
        #expect(throws: LayoutError.self) {
            try Layout(file: "code", layers: [Layout.Layer(name: "layer 1", placement: .over(Layout.Timing(exit: Layout.Motion(effect: .fade, duration: -1))),
                                                            box: Layout.Box(x: 0, y: 0, width: 1, height: 1), content: .text(Layout.Text(template: "x")))]).check()
        }
    }

    @Test("anchors resolve on the clip's moments: a longer hold moves the layer with the transition")
    func anchorsFollowTheClip() throws {
        let timing = try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"at": "landed+0.1", "duration": 0.5}, "out": {"at": "end-0.4"}}"#)
        let short = try LayerSchedule(timing, moments: Self.moments(hold: 1))
        #expect(short.entrance?.start == 2.1 && short.entrance?.duration == 0.5)
        #expect(abs((short.exit?.start ?? 0) - 2.6) < 1e-9 && abs((short.exit?.duration ?? 0) - 0.4) < 1e-9, "the exit's default duration ends it with the clip")
        #expect(short.from == 2.1 && short.until == 3)
        let long = try LayerSchedule(timing, moments: Self.moments(hold: 2))
        #expect(long.entrance?.start == 3.1 && long.until == 4)
        // Steps of a sequence: step 2 of three stills lands after two holds and two transitions.
        let stepped = try LayerSchedule(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"at": "step 2 landed"}}"#),
                                        moments: Self.moments(images: 3))
        #expect(stepped.entrance?.start == 4)
    }

    @Test("an anchor the clip lacks, or outside it, is refused naming the key", arguments: [
        (#"{"at": "step 3 landed"}"#, "in.at", "names a step the clip does not have; it has 2 steps"),
        (#"{"at": "end+1"}"#, "in.at", "outside the clip (0…5 s); give the clip an end hold"),
        (#"{"at": "step 1 transition-2"}"#, "in.at", "step 1 transition-2 is -1 s, outside the clip"),
    ])
    func anchorsTheClipLacks(_ entrance: String, _ key: String, _ words: String) throws {
        let timing = try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": \#(entrance)}"#)
        #expect(throws: LayerSchedule.Problem.self) { try LayerSchedule(timing, moments: Self.moments(images: 3)) }
        do {
            _ = try LayerSchedule(timing, moments: Self.moments(images: 3))
        } catch {
            #expect(error.key == key && error.message.contains(words), "\(error)")
        }
    }

    @Test("a slide's offset follows its easing; a fade's opacity its progress; wipes uncover from their edge")
    func states() throws {
        let moments = Self.moments()
        let slide = try LayerSchedule(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"at": "1", "effect": "slide-up", "distance": 80, "duration": 1, "easing": "spring"}}"#),
                                      moments: moments)
        #expect(slide.state(at: 0.9) == nil, "before its entrance a layer does not show")
        for time in stride(from: 1.05, through: 2, by: 0.05) {
            let progress = Easing.seedSpring.progress(elapsed: time - 1, duration: 1)
            let state = try #require(slide.state(at: time))
            #expect(abs(state.dy - 80 * (1 - progress)) < 1e-9 && state.dx == 0, "slide-up comes up from below")
            #expect(abs(state.opacity - min(1, progress)) < 1e-9)
        }
        #expect(slide.state(at: 2.5)?.isStill == true)
        let leaving = try LayerSchedule(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "out": {"at": "2", "effect": "slide-left", "duration": 1, "easing": "linear"}}"#),
                                        moments: moments)
        #expect(leaving.state(at: 2.5).map { $0.dx == -50 && $0.opacity == 0.5 } == true, "slide-left leaves toward the left")
        #expect(leaving.state(at: 3.01) == nil)
        let wipe = try LayerSchedule(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"effect": "wipe-left", "duration": 1, "easing": "linear"}}"#),
                                     moments: moments)
        #expect(wipe.state(at: 0.25).map { $0.visible == (0.75, 0, 1, 1) && $0.opacity == 1 } == true, "wipe-left uncovers from the right edge")
        let pop = try LayerSchedule(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"effect": "pop", "duration": 1}}"#),
                                    moments: moments)
        #expect(pop.entrance?.easing == .uikitSpring(damping: 0.5, velocity: 0))
        let scales = stride(from: 0.05, through: 1, by: 0.05).compactMap { pop.state(at: $0)?.scale }
        #expect((scales.max() ?? 0) > 1.05, "pop overshoots with its spring: \(scales)")
        let strips = try LayerSchedule(try Self.timing(#"{"text": "x", "box": [0, 0, 1, 1], "in": {"at": "transition", "effect": "strips", "duration": 1}}"#),
                                       moments: moments)
        #expect(strips.entrance?.easing == .seedSpring, "strips take the clip's easing")
        #expect(strips.state(at: 1.2)?.strips.map { $0.cut.count == 8 && !$0.leaving && $0.factor > 0.1 } == true)
        #expect(strips.state(at: 2)?.isStill == true)
    }

    @Test("plain timing keeps its old opacity exactly")
    func plainTiming() throws {
        let timing = Layout.Timing(start: 0.5, end: 2.5, fadeIn: 0.3, fadeOut: 0.7)
        let schedule = try LayerSchedule(timing, moments: Self.moments())
        for tenth in 0...30 {
            let time = Double(tenth) / 10
            #expect((schedule.state(at: time)?.opacity ?? 0) == timing.opacity(at: time, clip: 3))
        }
    }

    /// A 40 × 20 layer: transparent, with an opaque white 10 × 6 block at (15, 7).
    static func block() -> RGBA16Image {
        let image = RGBA16Image(width: 40, height: 20, hasAlpha: true)
        for c in 0..<4 {
            for y in 0..<20 {
                for x in 0..<40 { image.row(c, y)[x] = (15..<25).contains(x) && (7..<13).contains(y) ? 65535 : 0 }
            }
        }
        return image
    }

    /// The alpha-weighted centroid of a moved layer, in frame pixels.
    static func centroid(_ pieces: [(image: RGBA16Image, x: Int, y: Int)], columns: Range<Int> = Int.min..<Int.max) -> (x: Double, y: Double, mass: Double) {
        var (sx, sy, mass) = (0.0, 0.0, 0.0)
        for moved in pieces {
            for y in 0..<moved.image.height {
                for x in 0..<moved.image.width where columns.contains(moved.x + x) {
                    let a = Double(moved.image.row(3, y)[x])
                    sx += a * (Double(moved.x + x) + 0.5)
                    sy += a * (Double(moved.y + y) + 0.5)
                    mass += a
                }
            }
        }
        return (sx / mass, sy / mass, mass)
    }

    @Test("a moved layer is resampled at sub-pixel positions: its centroid moves by the fraction asked, its mass stays")
    func subPixel() throws {
        let layer = try #require(MovingLayer(layer: Self.block(), x: 100, y: 50, frameWidth: 1080, frameHeight: 1080))
        var state = LayerState()
        let rest = Self.centroid(layer.pieces(state))
        #expect(layer.pieces(state).count == 1)
        #expect(abs(rest.x - 120) < 1e-6 && abs(rest.y - 60) < 1e-6)
        for step in 1...8 {
            state.dy = Double(step) * 0.125
            state.dx = -Double(step) * 0.3
            let moved = Self.centroid(layer.pieces(state))
            // The general resampler (scales, wipes) agrees with the translation's integers.
            let general = Self.centroid([try #require(layer.transformed(state))])
            #expect(abs(general.y - moved.y) < 0.002 && abs(general.x - moved.x) < 0.002)
            #expect(abs(moved.y - 60 - state.dy) < 0.002 && abs(moved.x - 120 - state.dx) < 0.002, "step \(step): \(moved)")
            #expect(abs(moved.mass - rest.mass) / rest.mass < 0.001)
        }
        // Scaled about the box's centre (120, 60): the block's area follows the scale squared.
        state = LayerState()
        state.scale = 1.5
        let grown = Self.centroid(layer.pieces(state))
        #expect(abs(grown.x - 120) < 0.01 && abs(grown.y - 60) < 0.01 && abs(grown.mass / rest.mass - 2.25) < 0.02, "\(grown)")
        // A wipe halfway across the box uncovers the block's left half (box 100…140: edge at 120).
        state = LayerState()
        state.visible = (0, 0, 0.5, 1)
        let half = Self.centroid(layer.pieces(state))
        #expect(abs(half.mass / rest.mass - 0.5) < 0.001 && abs(half.x - 117.5) < 0.01, "\(half)")
    }

    @Test("strips displace the layer's columns by their own travel, as the clip's strips do")
    func stripsCutTheLayer() throws {
        let layer = try #require(MovingLayer(layer: Self.block(), x: 100, y: 50, frameWidth: 1080, frameHeight: 1080))
        var state = LayerState()
        // 216 strips of 5 px: the block (115…125) spans strips 23, 24; alternating signs.
        state.strips = (StripCut(count: 216, seed: 7, travel: 1...4, direction: .vertical), 0.01, false)
        let pieces = layer.pieces(state)
        #expect(pieces.count >= 2, "one piece a strip")
        var rows: [Int: Double] = [:]
        for column in [117, 122] { rows[column] = Self.centroid(pieces, columns: column..<(column + 1)).y }
        let travel = StripLayout(count: 216, seed: 7, travel: 1...4).incomingTravel
        #expect(abs(rows[117]! - (60 + 0.01 * 1080 * -travel[23])) < 0.01, "strip 23 starts above: \(rows)")
        #expect(abs(rows[122]! - (60 + 0.01 * 1080 * travel[24])) < 0.01, "strip 24 starts below: \(rows)")
    }
}

@Suite struct MovingPlanesTests {
    /// A 30 × 14 layer: a red block with a half-transparent blue edge and a soft corner.
    static func layer() -> RGBA16Image {
        let image = RGBA16Image(width: 30, height: 14, hasAlpha: true)
        for y in 0..<14 {
            for x in 0..<30 {
                let (a, r, g, b): (UInt16, UInt16, UInt16, UInt16)
                switch (x, y) {
                case (5..<20, 3..<10): (a, r, g, b) = (65535, 60000, 8000, 4000)
                case (20..<24, 3..<10): (a, r, g, b) = (32768, 2000, 9000, 30000)
                case (24, 3..<10): (a, r, g, b) = (9000, 9000, 9000, 9000)
                default: (a, r, g, b) = (0, 0, 0, 0)
                }
                (image.row(0, y)[x], image.row(1, y)[x], image.row(2, y)[x], image.row(3, y)[x]) = (r, g, b, a)
            }
        }
        return image
    }

    @Test("drawn from its planes at an offset, a moving layer matches the layer moved and drawn as any layer, in every layout without alpha",
          arguments: [PixelLayout.yuv420p, .yuv444p, .gbrp, .yuv420p16, .yuv444p16, .gbrp16])
    func planesMatchTheMovedLayer(_ layout: PixelLayout) throws {
        let moving = try #require(MovingLayer(layer: Self.layer(), x: 21, y: 9, frameWidth: 80, frameHeight: 40))
        let planes = try #require(MovingPlanes(moving, layout: layout))
        var state = LayerState()
        for (dx, dy, opacity) in [(0.0, 0.0, 1.0), (0.3, -0.7, 1.0), (-5.25, 3.5, 0.6), (13.9, 0.05, 1.0)] {
            (state.dx, state.dy, state.opacity) = (dx, dy, opacity)
            let direct = PlanarImage(width: 80, height: 40, layout: layout)
            direct.fill(RGBAColor(red: 90, green: 140, blue: 200))
            let general = PlanarImage(width: 80, height: 40, layout: layout)
            general.fill(RGBAColor(red: 90, green: 140, blue: 200))
            planes.draw(try #require(moving.translations(state)), onto: direct, opacity: opacity)
            for overlay in moving.overlays(state, layout: layout) { overlay.draw(onto: general, opacity: opacity) }
            let worst = zip(direct.planes, general.planes).map { a, b in
                (0..<a.height).flatMap { y in (0..<a.width).map { x in
                    layout.isDeep ? abs(Int(a.row16(y)[x]) - Int(b.row16(y)[x])) : abs(Int(a.row(y)[x]) - Int(b.row(y)[x])) } }.max() ?? 0
            }.max() ?? 0
            #expect(worst <= (layout.isDeep ? 2 * 257 : 2), "\(layout) offset \(dx), \(dy): \(worst)")
            // And it drew something: the block's red is there.
            #expect(direct.planes.indices.contains { p in (0..<direct.planes[p].height).contains { y in
                (0..<direct.planes[p].width).contains { x in layout.isDeep ? direct.planes[p].row16(y)[x] != general.planes[p].row16(0)[0] : direct.planes[p].row(y)[x] != general.planes[p].row(0)[0] } } })
        }
        #expect(MovingPlanes(moving, layout: .yuva420p) == nil, "frames with alpha are drawn from the moved layer")
    }
}
