// A layout's readability as the render plans it: the text engine gets numbers joined to their
// units, overlapping layers are warned about only when they can show together, and the contrast
// of a card's text is measured where its still is at rest, an over layer's on a sample of the
// frames that show it: each stretch of the clip (a hold, the strips) at its ends and middle.

import Foundation
import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct ReadableLayoutPlanTests {
    static func layer(_ name: String, _ placement: Layout.Placement, box: Layout.Box, text: String = "x") -> Layout.Layer {
        Layout.Layer(name: "layer '\(name)'", placement: placement, box: box, content: .text(Layout.Text(template: text, size: .pixels(40))))
    }

    static func plan(_ layers: [Layout.Layer]) throws -> LayoutPlan {
        try LayoutPlan.resolve(Layout(file: "promo.json", layers: layers), width: 320, height: 180, stills: 2, variables: [:], safeZones: [])
    }

    @Test("the text engine is given a no-break space between a number and its unit")
    func numbersAndUnitsReachTheEngine() throws {
        let plan = try Self.plan([Self.layer("size", .card(.to), box: Layout.Box(x: 0, y: 0, width: 0.2, height: 0.5), text: "Höhe 20 cm")])
        guard case .text(let text) = plan.layers[0].content else {
            Issue.record("not a text layer")
            return
        }
        #expect(plan.textLayer(text, for: plan.layers[0]).text == "Höhe 20\u{00A0}cm")
    }

    @Test("overlapping boxes are one warning per pair, and only for layers that can show at once")
    func overlaps() throws {
        let top = Layout.Box(x: 0, y: 0, width: 0.5, height: 0.5), across = Layout.Box(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        let apart = Layout.Box(x: 0.8, y: 0.8, width: 0.2, height: 0.2)
        // Two over layers at different times never cover each other; a card on another still neither.
        let quiet = try Self.plan([Self.layer("a", .over(Layout.Timing(start: 0, end: 1)), box: top),
                                   Self.layer("b", .over(Layout.Timing(start: 1, end: 2)), box: across),
                                   Self.layer("c", .card(.from), box: apart), Self.layer("d", .card(.to), box: apart)])
        #expect(quiet.overlapWarnings.isEmpty, "\(quiet.overlapWarnings)")
        let noisy = try Self.plan([Self.layer("a", .over(Layout.Timing(start: 0, end: 1.5)), box: top),
                                   Self.layer("b", .over(Layout.Timing(start: 1, end: 2)), box: across),
                                   Self.layer("c", .card(.all), box: apart), Self.layer("d", .card(.to), box: apart)])
        #expect(noisy.overlapWarnings.map(\.text) == [
            "layout 'promo.json' at 320x180: layer 'a' and layer 'b' overlap (80x45 at 80,45); move a box if one should not cover the other",
            "layout 'promo.json' at 320x180: layer 'c' and layer 'd' overlap (64x36 at 256,144); move a box if one should not cover the other",
        ])
        #expect(Set(noisy.overlapWarnings.map(\.topic)).count == 2)
    }

    @Test("a still is at rest during its hold and once its strips have landed; a card's text targets name the first frame it rests there")
    func restingFramesAndTargets() throws {
        var spec = TransitionSpec()
        (spec.width, spec.height, spec.hold, spec.duration, spec.frameRate) = (320, 180, 0.3, 0.6, FrameRate(10))
        let timeline = SequencePlan(spec: SequenceSpec(base: spec, imageCount: 2))
        #expect(LayerPictures.restingFrames(of: 0, plan: timeline) == [0, 1, 2, 3])
        #expect(LayerPictures.restingFrames(of: 1, plan: timeline) == [9])
        let plan = try Self.plan([Self.layer("card", .card(.to), box: Layout.Box(x: 0, y: 0, width: 0.5, height: 0.5)),
                                  Self.layer("late", .over(Layout.Timing(start: 0.2)), box: Layout.Box(x: 0, y: 0.5, width: 0.5, height: 0.5))])
        let pictures = LayerPictures(pictures: plan.layers.map { LayerPictures.Picture(layer: $0, image: RGBA16Image(width: 1, height: 1, hasAlpha: true), size: 40) })
        let first = pictures.contrastTargets(still: 0, plan: timeline, frameRate: 10, readability: Layout.Readability(), scale: 1)
        // An over layer is measured on the frames themselves (`checkContrast`), not on a still.
        #expect(first.isEmpty)
        let second = pictures.contrastTargets(still: 1, plan: timeline, frameRate: 10, readability: Layout.Readability(), scale: 1)
        #expect(second.map(\.layer) == ["layer 'card'"] && second.map(\.frame) == [9] && second.map(\.below) == [0])
        // 40 px at 1080p is large: 3:1; at a sixth of the scale it is 240 px, large too; 20 px is not.
        #expect(second[0].minimum == 3)
        let small = pictures.contrastTargets(still: 1, plan: timeline, frameRate: 10, readability: Layout.Readability(), scale: 2)
        #expect(small[0].minimum == 4.5)
    }

    @Test("an over layer is measured at the first, middle and last frame of each stretch it shows in (holds and strips apart), and on a poster's frame")
    func contrastSample() {
        var spec = TransitionSpec()
        (spec.width, spec.height, spec.hold, spec.duration, spec.frameRate) = (320, 180, 0.3, 0.6, FrameRate(10))
        let timeline = SequencePlan(spec: SequenceSpec(base: spec, imageCount: 2))
        // Frames 0…3 hold the first still, 4…8 are its strips, 9 is the second at rest.
        #expect(timeline.contrastSample(Array(0..<10)) == [0, 2, 3, 4, 6, 8, 9])
        // Shown only during the strips: only strip frames; a poster's frame joins the sample.
        #expect(timeline.contrastSample([5, 6, 7]) == [5, 6, 7])
        #expect(timeline.contrastSample(Array(4...8), kept: [5, 9]) == [4, 5, 6, 8])
        // A gap in what it shows splits a stretch.
        #expect(timeline.contrastSample([0, 1, 3]) == [0, 1, 3])
    }

    @Test("a poster's frame and a storyboard's cells join the frames an over layer is measured on; a video adds none")
    func pictureFrames() throws {
        let dir = try MakeJobOutputsTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 7 frames (0.2 s hold, 0.4 s move at 10 fps): the poster at 0.3 s is frame 3; a 2×2
        // storyboard's cells are spread from the first frame to the last.
        let plan = try MakeJob.plan(try .parsing(spec: try MakeJobOutputsTests.tinySpec(),
                                                 outputs: ["\(dir)/a.mp4", "\(dir)/p.png:poster-at=0.3", "\(dir)/s.jpg:sheet=2x2"]))
        #expect(plan.outputs.map(\.pictureFrames) == [[], [3], [0, 2, 4, 6]])
    }
}
