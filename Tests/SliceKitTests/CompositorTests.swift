// Rendered frames, pixel by pixel, on tiny synthetic stills whose every byte says where it
// came from. Expected frames are built here from the design's rules, not from the renderer.

import Dispatch
import Testing
import SliceKit

@Suite("Compositor")
struct CompositorTests {
    /// A 16 × 8 transition, 1 s hold and 1 s of motion at 30 fps (61 frames).
    static func spec(
        direction: StripDirection = .vertical, strips: Int = 4, travel: ClosedRange<Double> = 1...4,
        easing: Easing = .linear, background: RGBAColor = .black, seed: UInt64 = TransitionSpec.defaultSeed
    ) -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = 16
        spec.height = 8
        spec.strips = strips
        spec.direction = direction
        spec.travel = travel
        spec.easing = easing
        spec.background = background
        spec.seed = seed
        return spec
    }

    /// Source bytes run 0…127 and destination bytes 128…255, distinct within each plane.
    static func stills(_ layout: PixelLayout) -> (source: PlanarImage, destination: PlanarImage) {
        func pattern(_ base: Int) -> (Int, Int, Int) -> UInt8 {
            { p, x, y in UInt8(base + (p * 37 + y * 16 + x) % 128) }
        }
        return (PlanarImage.patterned(width: 16, height: 8, layout: layout, pattern: pattern(0)),
                PlanarImage.patterned(width: 16, height: 8, layout: layout, pattern: pattern(128)))
    }

    static func render(_ spec: TransitionSpec, _ layout: PixelLayout, frame: Int) -> (PlanarImage, Compositor) {
        let (source, destination) = stills(layout)
        let compositor = Compositor(plan: FramePlan(spec: spec), source: source, destination: destination)
        let target = PlanarImage(width: 16, height: 8, layout: layout)
        // Paint the target with something no frame contains, so unwritten pixels show.
        for plane in target.planes { for y in 0..<plane.height { plane.row(y).update(repeating: 0xEE, count: plane.width) } }
        compositor.render(frame: frame, into: target)
        return (target, compositor)
    }

    enum Origin { case source, destination, background }

    /// The expected frame, plane by plane, from the design: strip i of the source moved by
    /// sign·K·extent·p, of the destination by sign·K·extent·(1 − p), destination on top,
    /// background elsewhere; shifts are rounded in each plane's own pixels.
    static func expectedFrame(
        _ spec: TransitionSpec, _ layout: PixelLayout, progress p: Double
    ) -> (pixels: [[[UInt8]]], origins: [Origin]) {
        let (source, destination) = stills(layout)
        let strips = StripLayout(count: spec.strips, seed: spec.seed, travel: spec.travel)
        let vertical = spec.direction == .vertical
        let extent = Double(vertical ? spec.height : spec.width)
        let fill = layout.fillValues(for: spec.background)
        var frame: [[[UInt8]]] = []
        var origins: [Origin] = []
        for plane in 0..<layout.planeCount {
            let size = layout.planeSize(plane, width: 16, height: 8)
            var pixels = [[UInt8]](repeating: [UInt8](repeating: 0, count: size.width), count: size.height)
            let across = vertical ? size.width : size.height     // the axis strips are cut along
            let along = vertical ? size.height : size.width      // the axis they move along
            let scale = Double(along) / extent
            for s in 0..<spec.strips {
                let start = Int((Double(s * across) / Double(spec.strips)).rounded())
                let end = Int((Double((s + 1) * across) / Double(spec.strips)).rounded())
                let outgoing = (s % 2 == 0 ? -1.0 : 1.0) * strips.outgoingTravel[s] * extent * p
                let incoming = (s % 2 == 0 ? 1.0 : -1.0) * strips.incomingTravel[s] * extent * (1 - p)
                let shiftOut = Int((outgoing * scale).rounded())
                let shiftIn = Int((incoming * scale).rounded())
                for a in start..<end {
                    for b in 0..<along {
                        // (a, b) = (across, along) → (x, y)
                        func at(_ image: PlanarImage, _ bb: Int) -> UInt8 {
                            vertical ? image.pixel(plane: plane, x: a, y: bb) : image.pixel(plane: plane, x: bb, y: a)
                        }
                        let value: UInt8
                        if (0..<along).contains(b - shiftIn) {
                            value = at(destination, b - shiftIn); origins.append(.destination)
                        } else if (0..<along).contains(b - shiftOut) {
                            value = at(source, b - shiftOut); origins.append(.source)
                        } else {
                            value = UInt8(fill[plane]); origins.append(.background)
                        }
                        if vertical { pixels[b][a] = value } else { pixels[a][b] = value }
                    }
                }
            }
            frame.append(pixels)
        }
        return (frame, origins)
    }

    static func pixels(of image: PlanarImage) -> [[[UInt8]]] {
        image.planes.map { plane in
            (0..<plane.height).map { y in (0..<plane.width).map { x in plane.row(y)[x] } }
        }
    }

    // MARK: - Still frames

    @Test("hold frames are the source and the last frame is the destination", arguments: PixelLayout.allCases)
    func stillFrames(layout: PixelLayout) {
        let spec = Self.spec()
        let (source, destination) = Self.stills(layout)
        for frame in [0, 15, 30] {
            #expect(Self.render(spec, layout, frame: frame).0.hasSamePixels(as: source), "frame \(frame)")
        }
        #expect(Self.render(spec, layout, frame: 60).0.hasSamePixels(as: destination))
    }

    // MARK: - Frames in motion

    @Test("every moving frame matches the expected strips", arguments: [
        (StripDirection.vertical, PixelLayout.yuv420p), (.vertical, .gbrp), (.vertical, .yuva420p),
        (.horizontal, .yuv420p), (.horizontal, .gbrap), (.horizontal, .yuv444p),
    ])
    func movingFrames(direction: StripDirection, layout: PixelLayout) {
        let spec = Self.spec(direction: direction, strips: direction == .vertical ? 5 : 3, travel: 0.2...1.6)
        var seen: [Origin: Int] = [:]
        for frame in 31...59 {
            let progress = Double(frame) / 30 - 1
            let expected = Self.expectedFrame(spec, layout, progress: progress)
            let actual = Self.pixels(of: Self.render(spec, layout, frame: frame).0)
            #expect(actual == expected.pixels, "frame \(frame)")
            for origin in expected.origins { seen[origin, default: 0] += 1 }
        }
        // The frames checked really do mix all three kinds of pixel.
        #expect(seen[.source, default: 0] > 0)
        #expect(seen[.destination, default: 0] > 0)
        #expect(seen[.background, default: 0] > 0)
    }

    @Test("incoming strips travel more than a frame height early on without breaking the frame")
    func largeDisplacements() {
        // K ∈ [3, 4]: on the first moving frame every incoming strip is still ≥ 2.9 frames away.
        let spec = Self.spec(travel: 3...4)
        for layout in [PixelLayout.yuv420p, .gbrp] {
            for frame in [31, 32, 58, 59] {
                let expected = Self.expectedFrame(spec, layout, progress: Double(frame) / 30 - 1)
                #expect(Self.pixels(of: Self.render(spec, layout, frame: frame).0) == expected.pixels, "frame \(frame)")
            }
        }
    }

    @Test("more strips than pixels: empty strips are skipped and the rest still tile the frame", arguments: [
        StripDirection.vertical, .horizontal,
    ])
    func moreStripsThanPixels(direction: StripDirection) {
        // 75 strips, the seed's count, on a 16 × 8 frame (8 × 4 in chroma).
        let spec = Self.spec(direction: direction, strips: 75)
        for frame in [31, 40, 50, 59] {
            let expected = Self.expectedFrame(spec, .yuv420p, progress: Double(frame) / 30 - 1)
            #expect(Self.pixels(of: Self.render(spec, .yuv420p, frame: frame).0) == expected.pixels, "frame \(frame)")
        }
    }

    @Test("the seed spring renders the frames its offsets describe, overshoot included")
    func springFrames() {
        let spec = Self.spec(easing: .seedSpring)
        let spring = UIKitSpring(damping: 0.8, duration: 1)
        for frame in 31...59 {
            let progress = spring.value(at: Double(frame) / 30 - 1)
            let expected = Self.expectedFrame(spec, .yuv420p, progress: progress)
            #expect(Self.pixels(of: Self.render(spec, .yuv420p, frame: frame).0) == expected.pixels, "frame \(frame)")
        }
    }

    @Test("vertical strips by hand: K = 1.5 at half way leaves a background gap")
    func verticalByHand() {
        let spec = Self.spec(travel: 1.5...1.5)
        let (source, destination) = Self.stills(.yuv420p)
        let (frame, _) = Self.render(spec, .yuv420p, frame: 45)  // progress 0.5: shifts of ±6 rows (±3 in chroma)
        for x in 0..<8 {
            let up = x < 4  // strip 0 leaves up and its incoming strip arrives from below; strip 1 the reverse
            for y in 0..<8 {
                let expected: UInt8
                switch (up, y) {
                case (true, 0...1): expected = source.pixel(plane: 0, x: x, y: y + 6)
                case (true, 6...7): expected = destination.pixel(plane: 0, x: x, y: y - 6)
                case (false, 0...1): expected = destination.pixel(plane: 0, x: x, y: y + 6)
                case (false, 6...7): expected = source.pixel(plane: 0, x: x, y: y - 6)
                default: expected = 16
                }
                #expect(frame.pixel(plane: 0, x: x, y: y) == expected, "luma (\(x), \(y))")
            }
        }
        for plane in 1...2 {
            #expect(frame.pixel(plane: plane, x: 0, y: 0) == source.pixel(plane: plane, x: 0, y: 3))
            #expect(frame.pixel(plane: plane, x: 1, y: 3) == destination.pixel(plane: plane, x: 1, y: 0))
            #expect(frame.pixel(plane: plane, x: 2, y: 0) == destination.pixel(plane: plane, x: 2, y: 3))
            #expect(frame.pixel(plane: plane, x: 3, y: 3) == source.pixel(plane: plane, x: 3, y: 0))
            for y in 1...2 { #expect(frame.pixel(plane: plane, x: 0, y: y) == 128) }
        }
    }

    @Test("horizontal strips by hand: K = 1.5 at half way slides bands sideways")
    func horizontalByHand() {
        let spec = Self.spec(direction: .horizontal, travel: 1.5...1.5)
        let (source, destination) = Self.stills(.yuv420p)
        let (frame, _) = Self.render(spec, .yuv420p, frame: 45)  // shifts of ±12 columns (±6 in chroma)
        for y in 0..<4 {
            let first = y < 2  // band 0 leaves left and its incoming band arrives from the right
            for x in 0..<16 {
                let expected: UInt8
                switch (first, x) {
                case (true, 0...3): expected = source.pixel(plane: 0, x: x + 12, y: y)
                case (true, 12...15): expected = destination.pixel(plane: 0, x: x - 12, y: y)
                case (false, 0...3): expected = destination.pixel(plane: 0, x: x + 12, y: y)
                case (false, 12...15): expected = source.pixel(plane: 0, x: x - 12, y: y)
                default: expected = 16
                }
                #expect(frame.pixel(plane: 0, x: x, y: y) == expected, "luma (\(x), \(y))")
            }
        }
        #expect(frame.pixel(plane: 1, x: 1, y: 0) == source.pixel(plane: 1, x: 7, y: 0))
        #expect(frame.pixel(plane: 1, x: 6, y: 0) == destination.pixel(plane: 1, x: 0, y: 0))
        #expect(frame.pixel(plane: 1, x: 4, y: 0) == 128)
    }

    // MARK: - Background

    @Test("uncovered pixels show the background in BT.709 limited range", arguments: [
        (RGBAColor.black, [UInt8(16), 128, 128]), (RGBAColor(red: 255, green: 255, blue: 255), [235, 128, 128]),
    ])
    func yuvBackground(color: RGBAColor, values: [UInt8]) {
        let spec = Self.spec(travel: 1.5...1.5, background: color)
        let (frame, _) = Self.render(spec, .yuv420p, frame: 45)
        for y in 2...5 { #expect(frame.pixel(plane: 0, x: 5, y: y) == values[0]) }
        #expect(frame.pixel(plane: 1, x: 2, y: 1) == values[1])
        #expect(frame.pixel(plane: 2, x: 2, y: 2) == values[2])
    }

    @Test("RGB layouts fill the background as G, B, R (and alpha)")
    func rgbBackground() {
        let color = RGBAColor(red: 200, green: 100, blue: 50)
        let spec = Self.spec(travel: 1.5...1.5, background: color)
        let (frame, _) = Self.render(spec, .gbrap, frame: 45)
        #expect(frame.pixel(plane: 0, x: 9, y: 3) == 100)
        #expect(frame.pixel(plane: 1, x: 9, y: 3) == 50)
        #expect(frame.pixel(plane: 2, x: 9, y: 3) == 200)
        #expect(frame.pixel(plane: 3, x: 9, y: 3) == 255)
    }

    // MARK: - Sharing

    @Test("one compositor renders identical frames from many threads at once")
    func concurrentRendering() {
        let spec = Self.spec(easing: .seedSpring)
        let (source, destination) = Self.stills(.yuv420p)
        let compositor = Compositor(plan: FramePlan(spec: spec), source: source, destination: destination)
        let count = compositor.plan.frameCount
        let serial = (0..<count).map { index -> PlanarImage in
            let image = PlanarImage(width: 16, height: 8, layout: .yuv420p)
            compositor.render(frame: index, into: image)
            return image
        }
        // Every frame three times over, each into its own buffer, in whatever order threads pick.
        let parallel = (0..<count * 3).map { _ in PlanarImage(width: 16, height: 8, layout: .yuv420p) }
        DispatchQueue.concurrentPerform(iterations: parallel.count) { i in
            compositor.render(frame: i % count, into: parallel[i])
        }
        for (i, image) in parallel.enumerated() {
            #expect(image.hasSamePixels(as: serial[i % count]), "frame \(i % count)")
        }
    }
}
