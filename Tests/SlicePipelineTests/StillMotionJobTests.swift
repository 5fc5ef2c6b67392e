// Motion on stills end to end, measured on the frames written: a push-in's zoom, estimated from
// each decoded frame, follows its move frame by frame through the hold, under the strips and
// after the next still lands — rising every frame, by steady steps — and a still that does not
// move gives today's bytes, with any number of render threads.

import Foundation
import ScratchFixtures
import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct StillMotionJobTests {
    static let width = 200, height = 112

    /// A grey ramp one level a pixel across the frame (rising, or falling for the second
    /// still), exact in 8 bits: bilinear resampling keeps a linear ramp linear, so a frame's
    /// slope and offset, read at 16 bits, say how far it is zoomed and where its view starts.
    static func ramp(_ scratch: Scratch, _ name: String, rising: Bool) throws -> String {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value = UInt8(20 + (rising ? x : width - 1 - x))
                let i = 4 * (y * width + x)
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3]) = (value, value, value, 255)
            }
        }
        let file = scratch.path + "/" + name
        try StillWriter.write(image, to: file, format: .png)
        return file
    }

    /// Least squares `value ≈ a + b × x` over `columns` of the middle row of plane 0 (luma).
    static func line(_ frame: PlanarImage, columns: ClosedRange<Int>) -> (a: Double, b: Double) {
        let xs = columns.map(Double.init), vs = columns.map { Double(frame.sample(plane: 0, x: $0, y: height / 2)) }
        let n = Double(xs.count), mx = xs.reduce(0, +) / n, mv = vs.reduce(0, +) / n
        let b = zip(xs, vs).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - mv) } / xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        return (mv - b * mx, b)
    }

    static func spec() -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = width
        spec.height = height
        spec.frameRate = FrameRate(30)
        spec.hold = 1
        spec.duration = 0.5
        spec.stagger = 0.1
        spec.strips = 8
        spec.endHold = 0.5
        spec.motion = StillMotion(kind: .pushIn, amount: 0.2)
        return spec
    }

    @Test func aPushInsZoomRisesSmoothlyThroughHoldStripsAndLanding() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let stills = [try Self.ramp(scratch, "up.png", rising: true), try Self.ramp(scratch, "down.png", rising: false)]
        // Lossless and 16 bits a sample: the frames are what the render drew, its blends unrounded.
        let report = try MakeJob.run(try .parsing(spec: Self.spec(), stills: stills, outputs: [scratch.path + "/clip.mkv:pix-fmt=yuv444p16le"]))
        // Hold 1 s, strips 0.5 s + 7 × 0.1 s of wave, end hold 0.5 s: 2.7 s at 30 fps.
        #expect(report.frames == 82)
        let frames = try MediaReader.frames(path: scratch.path + "/clip.mkv", layout: .yuv444p16)
        #expect(frames.count == 82)
        // Each still's ramp as the render has it (the move starts from the still itself, and
        // the second is the first mirrored), then each frame's zoom s and view origin o from
        // its own ramp: frame(x) = a + b × (o + (x + ½)/s − ½).
        let full = 0...(Self.width - 1)
        let first = Self.line(frames[0], columns: full)
        let base = [first, (a: first.a + first.b * Double(Self.width - 1), b: -first.b)]
        func measure(_ frame: PlanarImage, still k: Int, columns: ClosedRange<Int>) -> (zoom: Double, origin: Double) {
            let (a, b) = Self.line(frame, columns: columns)
            let zoom = base[k].b / b
            return (zoom, (a - base[k].a) / base[k].b - 0.5 / zoom + 0.5)
        }
        // The moves as planned: the first still from 0 s until its last strip has left
        // (1 + 0.5 + 0.7 s), the second from its strips' start (1 s) to the last frame (2.7 s).
        func expected(_ frame: Int, from start: Double, to end: Double) -> (zoom: Double, origin: Double) {
            let zoom = 1 + 0.2 * min(max((Double(frame) / 30 - start) / (end - start), 0), 1)
            return (zoom, (Double(Self.width) - Double(Self.width) / zoom) / 2)
        }
        // The first still: its hold (frames 0…30) and the transition's frames while strips 3…7
        // rest (strip 3 starts 1.3 s in, frame 39), measured on those strips' columns.
        var series: [(frame: Int, zoom: Double)] = []
        for index in 0...38 {
            let columns = index <= 30 ? full : (3 * Self.width / 8 + 2)...(Self.width - 1)
            let got = measure(frames[index], still: 0, columns: columns), want = expected(index, from: 0, to: 2.2)
            #expect(abs(got.zoom - want.zoom) < 1e-4, "frame \(index): zoom \(got.zoom), planned \(want.zoom)")
            #expect(abs(got.origin - want.origin) < 0.01, "frame \(index): view from \(got.origin) px, planned \(want.origin)")
            series.append((index, got.zoom))
        }
        // The second still from its landing (its last strip rests at 2.2 s, frame 66) to the end.
        var landed: [(frame: Int, zoom: Double)] = []
        for index in 66..<report.frames {
            let got = measure(frames[index], still: 1, columns: full), want = expected(index, from: 1, to: 2.7)
            #expect(abs(got.zoom - want.zoom) < 1e-4, "frame \(index): zoom \(got.zoom), planned \(want.zoom)")
            #expect(abs(got.origin - want.origin) < 0.01, "frame \(index): view from \(got.origin) px, planned \(want.origin)")
            landed.append((index, got.zoom))
        }
        // Smooth: every frame zooms further than the one before, by a step within 2 % of the
        // planned one (0.2 / 66 and 0.2 / 51 per frame), so no frame steps back or jumps.
        for (run, step) in [(series, 0.2 / 66), (landed, 0.2 / 51)] {
            for (before, after) in zip(run, run.dropFirst()) {
                let change = after.zoom - before.zoom
                #expect(change > 0, "frame \(after.frame) zooms out")
                #expect(abs(change - step) < 0.02 * step, "frame \(after.frame): step \(change), planned \(step)")
            }
        }
    }

    @Test func aZoomHeadsForWhereTheFocusLandedInACoverCrop() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // A still twice the frame's height, a ramp down its rows: cover keeps its top half for
        // the focus at a quarter of its height, which lands in the middle of the frame.
        var image = RGBAImage(width: Self.width, height: 2 * Self.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = 4 * (y * image.width + x), value = UInt8(20 + y)
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3]) = (value, value, value, 255)
            }
        }
        let still = scratch.path + "/tall.png"
        try StillWriter.write(image, to: still, format: .png)
        var spec = Self.spec()
        spec.focus = Focus(x: 0.5, y: 0.25)!
        spec.endHold = 0
        _ = try MakeJob.run(try .parsing(spec: spec, stills: [still, still], outputs: [scratch.path + "/clip.mkv:pix-fmt=yuv444p16le"]))
        let frames = try MediaReader.frames(path: scratch.path + "/clip.mkv", layout: .yuv444p16)
        /// Least squares along column 100: value ≈ a + b × y.
        func column(_ frame: PlanarImage) -> (a: Double, b: Double) {
            let ys = (0..<Self.height).map(Double.init), vs = (0..<Self.height).map { Double(frame.sample(plane: 0, x: 100, y: $0)) }
            let n = Double(ys.count), my = ys.reduce(0, +) / n, mv = vs.reduce(0, +) / n
            let b = zip(ys, vs).reduce(0) { $0 + ($1.0 - my) * ($1.1 - mv) } / ys.reduce(0) { $0 + ($1 - my) * ($1 - my) }
            return (mv - b * my, b)
        }
        let base = column(frames[0])
        // The hold's last frame (1 s into a move lasting until 1.5 + 0.7 s): its view starts at
        // half the margin, as a zoom about the frame's middle row has it, not a quarter.
        let (a, b) = column(frames[30])
        let zoom = base.b / b, origin = (a - base.a) / base.b - 0.5 / zoom + 0.5
        let planned = 1 + 0.2 / 2.2, margin = Double(Self.height) - Double(Self.height) / planned
        #expect(abs(zoom - planned) < 1e-4, "zoom \(zoom), planned \(planned)")
        #expect(abs(origin - margin / 2) < 0.01, "view from row \(origin), the focus's landing plans \(margin / 2), its fraction \(margin / 4)")
    }

    @Test func aStillThatDoesNotMoveGivesTodaysBytesAndAnyThreadCountTheSame() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let stills = [try scratch.still("a.png", index: 0), try scratch.still("b.png", index: 1), try scratch.still("c.png", index: 2)]
        var plain = Self.spec()
        plain.width = 64
        plain.height = 36
        plain.motion = .none
        var still = plain
        still.motion = StillMotion(kind: .none, amount: 0.7, easing: .seedSpring)
        func render(_ spec: TransitionSpec, _ name: String, jobs: Int, own: [Int: StillMotion] = [:]) throws -> Data {
            var request = try MakeRequest.parsing(spec: spec, stills: stills, outputs: [scratch.path + "/" + name], jobs: jobs)
            request.stillMotions = own
            _ = try MakeJob.run(request)
            return try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/" + name))
        }
        #expect(try render(plain, "plain.y4m", jobs: 2) == render(still, "none.y4m", jobs: 1))
        var moving = plain
        moving.motion = StillMotion(kind: .panRight, amount: 0.3)
        let own = [1: StillMotion(kind: .pullOut, amount: 0.5, easing: .cubicBezier(.easeOut))]
        let one = try render(moving, "one.y4m", jobs: 1, own: own)
        #expect(one == (try render(moving, "two.y4m", jobs: 2, own: own)))
        #expect(one != (try render(moving, "shared.y4m", jobs: 2)), "the second image's own motion changes the clip")
        #expect(one != (try render(plain, "still.y4m", jobs: 2)))
    }

    @Test func anOwnMotionForAnImageThatIsNotThereIsAUsageError() {
        let out = NSTemporaryDirectory() + "slicevid-never.mp4"
        #expect(refusalCategory { () throws(SlicevidError) in
            var request = try MakeRequest.parsing(spec: Self.spec(), stills: ["a.png", "b.png"], outputs: [out])
            request.stillMotions = [2: StillMotion(kind: .panUp)]
            return request
        } == .usage)
    }
}
