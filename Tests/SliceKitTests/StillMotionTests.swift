// Motion on stills: the warp is exact where it must be (the whole still, flat colour), the
// moves go where their names say, and the strips cut the moving picture: a transition starts
// from the picture its hold was showing and the next still lands moving as it goes on moving.

import Testing
@testable import SliceKit

@Suite struct StillMotionTests {
    static let layouts: [PixelLayout] = [.yuv420p, .yuva420p, .yuv444p, .gbrp, .gbrap, .yuv420p16, .gbrp16]

    /// A still with a distinct sample everywhere (both bytes of 16-bit samples vary).
    static func textured(_ layout: PixelLayout, width: Int = 40, height: Int = 24, seed: Int = 0) -> PlanarImage {
        PlanarImage.patterned(width: width, height: height, layout: layout) { p, x, y in
            UInt8(truncatingIfNeeded: (x &* 37) ^ (y &* 91) ^ (p &* 53) ^ seed)
        }
    }

    @Test("the whole still at its own size is an exact copy, in every layout", arguments: layouts)
    func wholeIsCopy(layout: PixelLayout) {
        // Odd sizes too: rows are warped two at a time, the last alone.
        for (width, height) in [(41, 23), (7, 1)] {
            let odd = Self.textured(layout, width: width, height: height)
            let copy = PlanarImage(width: width, height: height, layout: layout)
            StillWarp.draw(odd, view: .whole(width: width, height: height), into: copy)
            #expect(copy.hasSamePixels(as: odd), "\(width)x\(height)")
        }
        let still = Self.textured(layout)
        let target = PlanarImage(width: still.width, height: still.height, layout: layout)
        StillWarp.draw(still, view: .whole(width: still.width, height: still.height), into: target)
        #expect(target.hasSamePixels(as: still))
        // So is a motion's first view of a pull-out's end and a push-in's start.
        let path = MotionPath(motion: StillMotion(kind: .pushIn, amount: 0.3), focus: Focus(x: 0.2, y: 0.9)!, start: 1, end: 2)
        path.draw(still, at: 0.5, into: target)
        #expect(target.hasSamePixels(as: still))
    }

    @Test("a flat colour stays exactly its colour under any zoom and pan", arguments: layouts)
    func flatStaysFlat(layout: PixelLayout) {
        let colour = RGBAColor(red: 201, green: 33, blue: 117, alpha: 255)
        let still = PlanarImage(width: 40, height: 24, layout: layout)
        still.fill(colour)
        let target = PlanarImage(width: 40, height: 24, layout: layout)
        for kind in MotionKind.allCases {
            for progress in [0.0, 0.13, 0.5, 0.77, 1.0] {
                let view = StillMotion(kind: kind, amount: 0.37).view(progress: progress, focus: .centre, width: 40, height: 24)
                StillWarp.draw(still, view: view, into: target)
                #expect(target.hasSamePixels(as: still), "\(kind) at \(progress)")
            }
        }
    }

    @Test("a part of a plane is warped exactly as the whole draw warps it, and nothing outside it is written",
          arguments: [PixelLayout.yuv420p, .gbrp16])
    func partsAreExact(layout: PixelLayout) {
        let still = Self.textured(layout, width: 41, height: 23)
        let view = StillMotion(kind: .pushIn, amount: 0.43).view(progress: 0.61, focus: Focus(x: 0.3, y: 0.7)!, width: 41, height: 23)
        let whole = PlanarImage(width: 41, height: 23, layout: layout)
        StillWarp.draw(still, view: view, into: whole)
        // Odd and even row counts (rows go in pairs), a one-sample part, and a part at the far corner.
        let parts = [SampleRect(rows: 3..<10, columns: 5..<17), SampleRect(rows: 11..<12, columns: 0..<1)]
        let corner = { (plane: Plane) in SampleRect(rows: plane.height - 2..<plane.height, columns: plane.width - 3..<plane.width) }
        let target = PlanarImage(width: 41, height: 23, layout: layout)
        let sentinel = RGBAColor(red: 1, green: 2, blue: 3, alpha: 255)
        target.fill(sentinel)
        let untouched = PlanarImage(width: 41, height: 23, layout: layout)
        untouched.fill(sentinel)
        StillWarp.draw(still, view: view, into: target, parts: still.planes.map { parts + [corner($0)] })
        for (p, plane) in target.planes.enumerated() {
            let rects = parts + [corner(plane)]
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    let inside = rects.contains { $0.rows.contains(y) && $0.columns.contains(x) }
                    let expected = (inside ? whole : untouched).sample(plane: p, x: x, y: y)
                    #expect(target.sample(plane: p, x: x, y: y) == expected, "plane \(p) (\(x), \(y)) \(inside ? "inside" : "outside")")
                }
            }
        }
    }

    @Test("every path of the 8-bit warp kernel (plain C; AVX2 and AVX-512 where the machine has them) blends exactly as the formula, at any length")
    func kernelPathsAgree() {
        var random = SplitMix64(seed: 32)
        func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        #expect(StillWarp.kernelPaths.first == 0, "the plain path runs everywhere")
        for path in StillWarp.kernelPaths {
            // Lengths below, at and past a vector's eight or sixteen samples, and a 1080p row.
            for n in [1, 7, 8, 9, 15, 16, 17, 33, 100, 1920] {
                let upper = (0..<n).map { _ in UInt8(next(256)) }, lower = (0..<n).map { _ in UInt8(next(256)) }
                for w in [0, 1, 128, 255, next(256)] {
                    let rows = StillWarp.kernelRows(path: path, upper: upper, lower: lower, weight: UInt16(w))
                    let expected = (0..<n).map { (k: Int) -> UInt16 in
                        let sum: Int = Int(upper[k]) * (256 - w) + Int(lower[k]) * w
                        return UInt16(sum)
                    }
                    let wrong = (0..<n).filter { rows[$0] != expected[$0] }
                    #expect(wrong.isEmpty, "path \(path), \(n) samples, row weight \(w): \(wrong.count) differ, the first at \(wrong.first ?? -1)")
                }
                // Blends anywhere in 0...255 × 256 (the extremes included), taps anywhere.
                var blend = (0...n).map { _ in UInt16(next(65281)) }
                blend[0] = 65280
                blend[n] = 0
                // Taps anywhere (a vector path gathers them); taps a zoom makes, rising by a
                // sample or less (it shuffles them from one load per four outputs); and taps
                // rising by steps that put a fourth output 6, 7 or 12 samples past the first, and
                // falling ones, about the edge between the two ways.
                let scattered = (0..<n).map { _ in next(n) }
                let step = 1 / (1 + Double(next(1000)) / 1000), origin = Double(next(max(1, n / 8)))
                let zoomed = (0..<n).map { min(n - 1, Int(origin + Double($0) * step)) }
                let edges = (0..<n).map { k in min(n - 1, [0, 2, 4, 6, 0, 2, 4, 7, 0, 4, 8, 12, 3, 2, 1, 0][k % 16] + 3 * (k / 16)) }
                // Sixteen outputs whose last reads 30 or 31 samples past their first: one load
                // of 32 holds the pair of the one, not of the other.
                let reach = (0..<n).map { k in min(n - 1, (k % 16 == 15 ? 30 + k / 16 % 2 : k % 16) + 32 * (k / 16)) }
                // Sums a half below and at a half of the last bit, where a rounding off by one
                // shows: 0 × 255 + 0x7fff × 1 rounds down, 0 × 255 + 0x8000 × 1 up.
                let halves = (0..<2 * n + 1).map { k -> UInt16 in k % 2 == 0 ? 0 : k % 4 == 1 ? 0x7fff : 0x8000 }
                let rounded = StillWarp.kernelColumns(path: path, blend: halves, index: (0..<n).map { 2 * $0 },
                                                      weight: [UInt32](repeating: 1, count: n))
                #expect(rounded == (0..<n).map { UInt8($0 % 2) }, "path \(path), \(n) samples: halves rounded as \(rounded.prefix(8))…")
                for index in [scattered, zoomed, edges, reach] {
                    let weight = (0..<n).map { (k: Int) -> UInt32 in k % 5 == 0 ? 0 : UInt32(next(256)) }
                    let columns = StillWarp.kernelColumns(path: path, blend: blend, index: index, weight: weight)
                    let sums = (0..<n).map { (k: Int) -> UInt8 in
                        let v = Int(weight[k]), first = Int(blend[index[k]]), second = Int(blend[index[k] + 1])
                        let sum: Int = first * (256 - v) + second * v + 0x8000
                        return UInt8(sum >> 16)
                    }
                    let wrong = (0..<n).filter { columns[$0] != sums[$0] }
                    #expect(wrong.isEmpty, "path \(path), \(n) samples, taps \(index.prefix(8))…: \(wrong.count) differ, the first at \(wrong.first ?? -1)")
                }
            }
        }
    }

    @Test("every path of the 8-bit warp kernel draws a rectangle exactly as the formula, for taps a zoom makes and taps anywhere")
    func kernelRectanglesAgree() {
        var random = SplitMix64(seed: 3232)
        func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        // Odd sizes and one past a vector's sixteen and 32 outputs; rows of any sample.
        for (width, height) in [(7, 3), (47, 9), (301, 5), (1920, 2)] {
            let still = PlanarImage.patterned(width: width, height: height, layout: .gbrp) { _, _, _ in UInt8(next(256)) }
            let source = still.planes[0]
            // Taps a zoom makes (rising a sample or less, a fraction each), the last one on the
            // row's last sample (it pairs with itself); and taps anywhere.
            let step = 1 / (1 + Double(next(1000)) / 1000)
            let zoomed = StillWarp.Taps(origin: Double(next(max(1, width / 8))), length: Double(width) * step, samples: width)
            var scattered = (index: (0..<width).map { _ in Int32(next(width)) }, weight: [UInt32]())
            scattered.weight = (0..<width).map { _ in let v = UInt32(next(256)); return 256 - v | v << 16 }
            scattered.index[width - 1] = Int32(width - 1)
            let rowIndex = (0..<height).map { _ in Int32(next(height)) } + [Int32(height - 1)]
            let rowWeight = rowIndex.map { _ in let v = UInt32(next(256)); return 256 - v | v << 16 }
            for columns in [(zoomed.index, zoomed.weight), scattered] {
                let expected = rowIndex.indices.flatMap { y -> [UInt8] in
                    let r = Int(rowIndex[y]), w = Int(rowWeight[y] >> 16)
                    let upper = source.row(r), lower = source.row(min(r + 1, height - 1))
                    func blend(_ x: Int) -> Int { Int(upper[min(x, width - 1)]) * (256 - w) + Int(lower[min(x, width - 1)]) * w }
                    return (0..<width).map { x in
                        let i = Int(columns.0[x]), v = Int(columns.1[x] >> 16)
                        return UInt8((blend(i) * (256 - v) + blend(i + 1) * v + 0x8000) >> 16)
                    }
                }
                for path in StillWarp.kernelPaths {
                    let drawn = StillWarp.kernelWarp(path: path, source, rows: (rowIndex, rowWeight), columns: columns)
                    let wrong = drawn.indices.filter { drawn[$0] != expected[$0] }
                    #expect(wrong.isEmpty, "path \(path), \(width)x\(height): \(wrong.count) differ, the first at \(wrong.first ?? -1)")
                }
            }
        }
    }

    @Test("parts are warped as whole row spans: the same samples, each once, side by side strips joined")
    func partsMerge() {
        // Eight strips 3 samples wide, each showing its own rows from the top (outgoing strips
        // falling), and a part overlapping two of them.
        let parts = (0..<8).map { k in SampleRect(rows: 0..<(20 - 2 * k), columns: 3 * k..<3 * k + 3) }
            + [SampleRect(rows: 5..<9, columns: 1..<7)]
        let merged = StillWarp.merged(parts)
        func counts(_ rects: [SampleRect]) -> [Int: Int] {
            var counts: [Int: Int] = [:]
            for r in rects { for y in r.rows { for x in r.columns { counts[y * 100 + x, default: 0] += 1 } } }
            return counts
        }
        let covered = counts(parts), drawn = counts(merged)
        #expect(Set(drawn.keys) == Set(covered.keys))
        #expect(drawn.values.allSatisfy { $0 == 1 }, "no sample is warped twice")
        #expect(merged.contains { $0.columns == 0..<24 }, "the rows all eight strips show are one piece: \(merged)")
        #expect(StillWarp.merged([]) == [] && StillWarp.merged([SampleRect(rows: 2..<2, columns: 0..<5)]) == [])
    }

    @Test("a frame in motion warps only the parts of its stills its strips show: together at most one frame's worth",
          arguments: [StripDirection.vertical, .horizontal])
    func framesInMotionWarpWhatTheyShow(direction: StripDirection) throws {
        var spec = TransitionSpec()
        spec.width = 40
        spec.height = 24
        spec.frameRate = FrameRate(10)
        spec.hold = 0.2
        spec.duration = 1
        spec.strips = 5
        spec.stagger = 0.1
        spec.direction = direction
        spec.motion = StillMotion(kind: .pushIn, amount: 0.3)
        let plan = SequencePlan(spec: SequenceSpec(base: spec, imageCount: 2))
        let stills = [Self.textured(.yuv420p, seed: 5), Self.textured(.yuv420p, seed: 77)]
        let compositor = SequenceCompositor(plan: plan, stills: stills)
        // The pool's pictures, marked: a sample still marked afterwards was not warped.
        let marked = RGBAColor(red: 250, green: 3, blue: 250, alpha: 255)
        let pictures = (0..<2).map { _ in PlanarImage(width: 40, height: 24, layout: .yuv420p) }
        let frame = PlanarImage(width: 40, height: 24, layout: .yuv420p)
        // A frame in motion that shows part of each still.
        let segment = plan.segments[0]
        let middle = try #require((0..<segment.frameCount).first { index in
            let content = segment.content(ofFrame: index), shown = Compositor.shows([content], extent: segment.travelExtent)
            guard case .strips = content else { return false }
            return shown.outgoing && shown.incoming
        })
        pictures.forEach { $0.fill(marked); compositor.pictures.give($0) }
        compositor.render(frame: middle, into: frame)
        #expect(compositor.pictures.made == 0, "the marked pictures were the ones borrowed")
        let mark = PlanarImage(width: 40, height: 24, layout: .yuv420p)
        mark.fill(marked)
        var warped = [0, 0]
        for (k, picture) in pictures.enumerated() {
            for y in 0..<24 { for x in 0..<40 where picture.sample(plane: 0, x: x, y: y) != mark.sample(plane: 0, x: x, y: y) { warped[k] += 1 } }
        }
        #expect(warped.allSatisfy { $0 > 0 }, "both stills show: \(warped)")
        #expect(warped.reduce(0, +) <= 40 * 24, "luma samples warped: \(warped), a frame has \(40 * 24)")
    }

    @Test("each move's view: zooms keep the focus point in place, pans cross the margin")
    func views() {
        let focus = Focus(x: 0.25, y: 0.75)!
        let push = StillMotion(kind: .pushIn, amount: 0.5)
        let end = push.view(progress: 1, focus: focus, width: 400, height: 200)
        #expect(end.width == 400 / 1.5 && end.height == 200 / 1.5)
        // The focus point (100, 150) is at the same fraction of the view as of the frame.
        #expect(abs((100 - end.x) / end.width - 0.25) < 1e-12 && abs((150 - end.y) / end.height - 0.75) < 1e-12)
        #expect(StillMotion(kind: .pullOut, amount: 0.5).view(progress: 0, focus: focus, width: 400, height: 200) == end)
        #expect(StillMotion(kind: .pullOut, amount: 0.5).view(progress: 1, focus: focus, width: 400, height: 200) == .whole(width: 400, height: 200))
        let left = StillMotion(kind: .panLeft, amount: 1)
        #expect(left.view(progress: 0, focus: focus, width: 400, height: 200).x == 200)
        #expect(left.view(progress: 1, focus: focus, width: 400, height: 200).x == 0)
        #expect(StillMotion(kind: .panRight, amount: 1).view(progress: 0, focus: focus, width: 400, height: 200).x == 0)
        #expect(StillMotion(kind: .panUp, amount: 1).view(progress: 0, focus: focus, width: 400, height: 200).y == 100)
        #expect(StillMotion(kind: .panDown, amount: 1).view(progress: 1, focus: focus, width: 400, height: 200).y == 100)
        // A spring's overshoot never zooms out of the still.
        let springy = StillMotion(kind: .pushIn, amount: 0.5).view(progress: -0.2, focus: focus, width: 400, height: 200)
        #expect(springy == .whole(width: 400, height: 200))
    }

    @Test("the amount is checked like every field: 64's text names motion-amount and what it takes", arguments: [0.0, 0.009, 1.01, .nan, -1])
    func amountRange(amount: Double) throws {
        var spec = TransitionSpec()
        spec.motion.amount = amount
        let error = try #require(throws: SpecError.self) { try spec.validate() }
        #expect(error.field == "motion-amount")
        #expect(error.message.contains(StillMotion.acceptedAmount))
        var sequence = SequenceSpec(base: TransitionSpec(), imageCount: 3)
        sequence.setMotion(StillMotion(kind: .panUp, amount: amount), ofImage: 2)
        #expect((try? sequence.validate()) == nil)
    }

    /// A 3-image sequence whose stills all push in, 8 strips in a wave so most strips rest
    /// through the transition's first frames.
    static func movingSequence(layout: PixelLayout) -> (plan: SequencePlan, stills: [PlanarImage], compositor: SequenceCompositor) {
        var spec = TransitionSpec()
        spec.width = 40
        spec.height = 24
        spec.frameRate = FrameRate(10)
        spec.hold = 0.5
        spec.duration = 0.3
        spec.stagger = 0.1
        spec.strips = 8
        spec.endHold = 0.4
        spec.motion = StillMotion(kind: .pushIn, amount: 0.4)
        var sequence = SequenceSpec(base: spec, imageCount: 3)
        sequence.setMotion(StillMotion(kind: .panLeft, amount: 0.5, easing: .cubicBezier(.easeInOut)), ofImage: 1)
        let plan = SequencePlan(spec: sequence)
        let stills = (0..<3).map { textured(layout, seed: 71 * $0) }
        return (plan, stills, SequenceCompositor(plan: plan, stills: stills))
    }

    @Test("the strips cut the moving picture: resting strips show the still as the hold would at that time", arguments: [PixelLayout.yuv420p, .gbrp16])
    func stripsCutTheMovingPicture(layout: PixelLayout) throws {
        let (plan, stills, compositor) = Self.movingSequence(layout: layout)
        let frame = PlanarImage(width: 40, height: 24, layout: layout)
        let expected = PlanarImage(width: 40, height: 24, layout: layout)
        let first = plan.segments[0]
        let path = try #require(plan.motions[0])
        // The hold's frames, its last one (the transition's start) included, and the frames
        // after it while strips 2… rest (strip i starts i × 0.1 s after the hold).
        let lastHold = 5
        #expect(first.content(ofFrame: lastHold) == .source && first.content(ofFrame: lastHold + 1) != .source)
        var moving = 0
        for index in 0...(lastHold + 2) {
            compositor.render(frame: index, into: frame)
            path.draw(stills[0], at: first.time(ofFrame: index), into: expected)
            if index > 0 { moving += frame.hasSamePixels(as: stills[0]) ? 0 : 1 }
            // Strips 3… (columns 15 on, and chroma's from 8) rest until 0.3 s after the hold.
            for (p, plane) in frame.planes.enumerated() {
                let from = plane.width * 3 / 8 + 1
                for y in 0..<plane.height {
                    for x in from..<plane.width {
                        #expect(frame.sample(plane: p, x: x, y: y) == expected.sample(plane: p, x: x, y: y), "frame \(index) plane \(p) (\(x), \(y))")
                    }
                }
            }
        }
        #expect(moving == lastHold + 2, "every frame after the first shows the still moved")
    }

    @Test("the next still lands as its move has it, and moves on from there; the last frame ends the move", arguments: [PixelLayout.yuv420p, .gbrp])
    func landingContinues(layout: PixelLayout) throws {
        let (plan, stills, compositor) = Self.movingSequence(layout: layout)
        let frame = PlanarImage(width: 40, height: 24, layout: layout)
        let expected = PlanarImage(width: 40, height: 24, layout: layout)
        let fps = 10.0
        for (image, segment) in [(1, 0), (2, 1)] {
            let path = try #require(plan.motions[image])
            let local = plan.segments[segment]
            // The first frame whose strips have all landed, and every frame on to the next
            // transition (or the video's end).
            let landed = (0..<local.frameCount).first { local.content(ofFrame: $0) == .destination }!
            let end = segment == plan.segments.count - 1 ? plan.frameCount - 1 : plan.starts[segment + 1] + 5
            var views: [MotionView] = []
            for index in (plan.starts[segment] + landed)...end {
                compositor.render(frame: index, into: frame)
                path.draw(stills[image], at: Double(index) / fps, into: expected)
                #expect(frame.hasSamePixels(as: expected), "frame \(index) shows still \(image) moved to its time")
                views.append(path.view(at: Double(index) / fps, width: 40, height: 24))
            }
            // The move is under way at landing (it started with the strips), not starting there.
            #expect(path.progress(at: Double(plan.starts[segment] + landed) / fps) > 0.3)
            #expect(Set(views.map(\.x)).count == views.count || Set(views.map(\.width)).count == views.count)
        }
        // The last still's move ends on the last frame.
        #expect(try #require(plan.motions[2]).progress(at: Double(plan.frameCount - 1) / fps) == 1)
    }

    @Test("every frame of a moving transition is the reference's, drawn from both stills warped to its time",
          arguments: [(PixelLayout.yuv420p, StripDirection.vertical, 1), (.gbrap16, .horizontal, 1), (.yuv444p, .vertical, 3), (.yuv420p, .horizontal, 3)])
    func everyFrameMatchesTheReference(layout: PixelLayout, direction: StripDirection, blur: Int) {
        var spec = TransitionSpec()
        spec.width = 40
        spec.height = 24
        spec.frameRate = FrameRate(10)
        spec.hold = 0.3
        spec.duration = 0.6
        spec.endHold = 0.2
        spec.strips = 7
        spec.direction = direction
        spec.motionBlur = blur
        spec.motion = StillMotion(kind: .pullOut, amount: 0.6, easing: .cubicBezier(.easeIn))
        var sequence = SequenceSpec(base: spec, imageCount: 2)
        sequence.setMotion(StillMotion(kind: .panDown, amount: 0.8), ofImage: 1)
        let plan = SequencePlan(spec: sequence)
        let stills = [Self.textured(layout, seed: 3), Self.textured(layout, seed: 200)]
        let compositor = SequenceCompositor(plan: plan, stills: stills)
        let frame = PlanarImage(width: 40, height: 24, layout: layout)
        let moved = stills.map { PlanarImage(width: $0.width, height: $0.height, layout: layout) }
        for index in 0..<plan.frameCount {
            let time = plan.segments[0].time(ofFrame: index)
            for (k, still) in stills.enumerated() { plan.motions[k]!.draw(still, at: time, into: moved[k]) }
            let reference = MotionBlur(Compositor(plan: plan.segments[0], source: moved[0], destination: moved[1]))
            let expected = PlanarImage(width: 40, height: 24, layout: layout)
            reference.render(frame: index, into: expected)
            compositor.render(frame: index, into: frame)
            #expect(frame.hasSamePixels(as: expected), "frame \(index)")
        }
        // One pair of pictures for the one thread that drew.
        #expect(compositor.pictures.made == 2)
    }

    @Test("a still without motion is drawn as today, whatever amount and easing it carries")
    func noneIsToday() {
        var spec = TransitionSpec()
        spec.width = 40
        spec.height = 24
        spec.strips = 6
        spec.frameRate = FrameRate(10)
        let still = [Self.textured(.yuv420p), Self.textured(.yuv420p, seed: 9)]
        let plain = SequenceCompositor(plan: SequencePlan(spec: SequenceSpec(base: spec, imageCount: 2)), stills: still)
        spec.motion = StillMotion(kind: .none, amount: 0.9, easing: .seedSpring)
        let none = SequenceCompositor(plan: SequencePlan(spec: SequenceSpec(base: spec, imageCount: 2)), stills: still)
        #expect(none.plan.motions == [nil, nil])
        let a = PlanarImage(width: 40, height: 24, layout: .yuv420p), b = PlanarImage(width: 40, height: 24, layout: .yuv420p)
        for index in 0..<plain.frameCount {
            plain.render(frame: index, into: a)
            none.render(frame: index, into: b)
            #expect(a.hasSamePixels(as: b))
        }
        #expect(none.pictures.made == 0)
    }
}
