// What layers cost the render, measured outside the test suite: frames of a 1080p transition
// rendered on every core as slicevid's render loop does, alone or with `over` layers drawn on
// each (a logo in a 10 % × 10 % box and a legal line in a 90 % × 4 % box), and the cost of
// composing a card's layers. Built by `make bench` from this file and SliceKit's sources as
// one module (.build/bench/overlays); bench/bench.py runs it.
//
//     overlays [--size 1920x1080] [--frames 600] [--jobs N] [--layout yuv420p] [--opacity 1] MODE
//     MODE: plain | over | over-solid | cards | draw | draw-solid | paired
//
// plain, over and over-solid print the wall and CPU seconds the render took (after the stills
// are made);
// over-solid draws the same boxes fully opaque (every sample covered: the worst case).
// cards prints the milliseconds one demo card takes to become the render layout without
// layers and with four (two text-like lines, a logo, a price plate), median of 15. draw and
// draw-solid print the microseconds the two layers take per frame on one thread, drawn alone
// (over a transparent frame with --transparent; at --opacity, as in a fade). paired renders
// the same 60 frames on one thread alone and with the two layers, in turn (the order swapped
// every round), 31 rounds, timed by the thread's own CPU clock so other work on the machine
// does not count; prints the median CPU ms a frame alone and with the layers, and the median
// of the rounds' ratios.

import Dispatch
import Foundation

@main
struct OverlayBench {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String, _ fallback: String) -> String {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return fallback }
            defer { arguments.removeSubrange(i...(i + 1)) }
            return arguments[i + 1]
        }
        let size = option("--size", "1920x1080").split(separator: "x").compactMap { Int($0) }
        let frames = Int(option("--frames", "600")) ?? 600
        let opacity = Double(option("--opacity", "1")) ?? 1
        let jobs = Int(option("--jobs", String(ProcessInfo.processInfo.activeProcessorCount))) ?? 1
        guard size.count == 2, size.allSatisfy({ $0 > 0 && $0 <= 8192 }), frames > 0, jobs > 0,
              let layout = PixelLayout(rawValue: option("--layout", "yuv420p")), let mode = arguments.first(where: { !$0.hasPrefix("--") }),
              ["plain", "over", "over-solid", "cards", "draw", "draw-solid", "paired"].contains(mode) else {
            FileHandle.standardError.write(Data("usage: overlays [--size WxH] [--frames N] [--jobs N] [--layout L] plain|over|over-solid|cards|draw|draw-solid|paired\n".utf8))
            exit(64)
        }
        let (width, height) = (size[0], size[1])
        if mode == "paired" {
            paired(width: width, height: height, layout: layout, overlays: overLayers(width: width, height: height, layout: layout, solid: false))
        } else if mode == "cards" {
            cards(width: width, height: height, layout: layout)
        } else if mode.hasPrefix("draw") {
            let overlays = overLayers(width: width, height: height, layout: layout, solid: mode == "draw-solid")
            let frame = DemoCards.source(width: width, height: height).planar(layout)
            // --transparent: a frame with alpha 0 everywhere (a transparent background).
            if arguments.contains("--transparent") { frame.fill(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)) }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<frames { for overlay in overlays { overlay.draw(onto: frame, opacity: opacity) } }
            print(String(format: "%.2f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(frames)))
        } else {
            render(width: width, height: height, layout: layout, frames: frames, jobs: jobs,
                   overlays: mode == "plain" ? [] : overLayers(width: width, height: height, layout: layout, solid: mode == "over-solid"))
        }
    }

    /// Renders `frames` frames of the transition's motion on `jobs` threads, each drawing into
    /// buffers of its own, the overlays drawn onto each frame; prints the seconds taken.
    static func render(width: Int, height: Int, layout: PixelLayout, frames: Int, jobs: Int, overlays: [FrameOverlay]) {
        var spec = TransitionSpec()
        spec.width = width
        spec.height = height
        let plan = FramePlan(spec: spec)
        let compositor = Compositor(plan: plan, source: DemoCards.source(width: width, height: height).planar(layout),
                                    destination: DemoCards.destination(width: width, height: height).planar(layout))
        // The frames in motion: the hold and the landed frames are the stills themselves.
        let moving = (0..<plan.frameCount).filter { !plan.showsSourceOnly(frame: $0) && !plan.showsDestinationOnly(frame: $0) }
        let buffers = (0..<jobs).map { _ in (0..<2).map { _ in PlanarImage(width: width, height: height, layout: layout) } }
        let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuSeconds()
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            for (n, i) in stride(from: job, to: frames, by: jobs).enumerated() {
                let buffer = buffers[job][n % 2]
                compositor.render(frame: moving[i % moving.count], into: buffer)
                for overlay in overlays { overlay.draw(onto: buffer) }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        print(String(format: "%.4f %.4f", seconds, cpuSeconds() - cpuStart))
    }

    /// User and system seconds of every thread of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Frames rendered alone and with `overlays` in turn on this thread; see the file's head.
    static func paired(width: Int, height: Int, layout: PixelLayout, overlays: [FrameOverlay]) {
        var spec = TransitionSpec()
        spec.width = width
        spec.height = height
        let plan = FramePlan(spec: spec)
        let compositor = Compositor(plan: plan, source: DemoCards.source(width: width, height: height).planar(layout),
                                    destination: DemoCards.destination(width: width, height: height).planar(layout))
        let moving = (0..<plan.frameCount).filter { !plan.showsSourceOnly(frame: $0) && !plan.showsDestinationOnly(frame: $0) }
        let buffer = PlanarImage(width: width, height: height, layout: layout)
        func pass(_ layers: [FrameOverlay]) -> Double {
            let start = threadSeconds()
            for index in moving.prefix(60) {
                compositor.render(frame: index, into: buffer)
                for overlay in layers { overlay.draw(onto: buffer) }
            }
            return (threadSeconds() - start) / Double(min(60, moving.count)) * 1000
        }
        _ = pass(overlays)
        var alone: [Double] = [], over: [Double] = []
        for round in 0..<31 {
            if round % 2 == 0 { alone.append(pass([])); over.append(pass(overlays)) } else { over.append(pass(overlays)); alone.append(pass([])) }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print(String(format: "%.4f %.4f %.4f", median(alone), median(over), median(zip(over, alone).map { $0 / $1 })))
    }

    /// CPU seconds this thread has used.
    static func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The two `over` layers of the example, prepared for the frame.
    static func overLayers(width: Int, height: Int, layout: PixelLayout, solid: Bool) -> [FrameOverlay] {
        let logo = box(0.86, 0.04, 0.10, 0.10, width, height), legal = box(0.05, 0.93, 0.90, 0.04, width, height)
        return [(logo, solid ? opaque(logo.w, logo.h) : disc(logo.w, logo.h)),
                (legal, solid ? opaque(legal.w, legal.h) : textLine(legal.w, legal.h, lines: 1))].map { box, picture in
            FrameOverlay(layer: picture, x: box.x, y: box.y, frameWidth: width, frameHeight: height, layout: layout)
        }
    }

    /// Prints the milliseconds (median of 15) a demo card takes to become the render layout,
    /// without layers and with the four layers of the example placed `on` it.
    static func cards(width: Int, height: Int, layout: PixelLayout) {
        let name = box(0.06, 0.60, 0.88, 0.14, width, height), price = box(0.06, 0.76, 0.40, 0.09, width, height)
        let logo = box(0.86, 0.04, 0.10, 0.10, width, height), legal = box(0.05, 0.93, 0.90, 0.04, width, height)
        let layers = [CardLayer(picture: textLine(name.w, name.h, lines: 1), x: name.x, y: name.y),
                      CardLayer(picture: opaque(price.w, price.h), x: price.x, y: price.y),
                      CardLayer(picture: disc(logo.w, logo.h), x: logo.x, y: logo.y),
                      CardLayer(picture: textLine(legal.w, legal.h, lines: 1), x: legal.x, y: legal.y)]
        let card = DemoCards.destination(width: width, height: height)
        func median(_ body: () -> Void) -> Double {
            let times = (0..<15).map { _ in
                let start = DispatchTime.now().uptimeNanoseconds
                body()
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            }
            return times.sorted()[7]
        }
        let plain = median { _ = card.planar(layout) }
        let layered = median { _ = card.planar(layout, layers: layers) }
        print(String(format: "%.2f %.2f", plain, layered))
    }

    static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ width: Int, _ height: Int) -> (x: Int, y: Int, w: Int, h: Int) {
        (Int(x * Double(width)), Int(y * Double(height)), max(1, Int(w * Double(width))), max(1, Int(h * Double(height))))
    }

    /// A premultiplied picture from straight colour and alpha per pixel.
    static func picture(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> (r: Double, g: Double, b: Double, a: Double)) -> RGBA16Image {
        let image = RGBA16Image(width: w, height: h, hasAlpha: true)
        for y in 0..<h {
            for x in 0..<w {
                let p = pixel(x, y), a = max(0, min(1, p.a))
                for (c, v) in [p.r, p.g, p.b, 1].enumerated() { image.row(c, y)[x] = UInt16((v * a * 65535).rounded()) }
            }
        }
        return image
    }

    static func opaque(_ w: Int, _ h: Int) -> RGBA16Image { picture(w, h) { x, _ in (0.9, 0.1, 0.2 + 0.5 * Double(x) / Double(w), 1) } }

    /// A logo fitted (contain) in its box: a disc with a soft edge, transparent margins.
    static func disc(_ w: Int, _ h: Int) -> RGBA16Image {
        let radius = 0.48 * Double(min(w, h)), cx = Double(w) / 2, cy = Double(h) / 2
        return picture(w, h) { x, y in
            let d = ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy) * (Double(y) + 0.5 - cy)).squareRoot()
            return (1, 0.8 * Double(y) / Double(h), 0.1, radius + 0.5 - d)
        }
    }

    /// Text-like coverage: glyph cells 0.5 × the text height wide, stems and bars with
    /// anti-aliased edges, across 60 % of the box, vertically centred at 40 % of its height.
    static func textLine(_ w: Int, _ h: Int, lines: Int) -> RGBA16Image {
        let textHeight = max(4, h * 2 / 5), top = (h - textHeight) / 2, cell = max(3, textHeight / 2)
        let left = w / 5, right = w * 4 / 5
        return picture(w, h) { x, y in
            guard x >= left, x < right, y >= top, y < top + textHeight else { return (1, 1, 1, 0) }
            let glyph = (x - left) / cell, ox = (x - left) % cell, oy = y - top
            let seed = (glyph &* 2654435761) >> 7
            if glyph % 6 == 5 { return (1, 1, 1, 0) } // a space between words
            let stem = ox == 1 || (seed & 1 == 0 && ox == cell - 3)
            let edge = ox == 0 || ox == 2 || (seed & 1 == 0 && (ox == cell - 4 || ox == cell - 2))
            let bar = (oy == 0 && seed & 2 == 0) || oy == textHeight / 2 || (oy == textHeight - 1 && seed & 4 == 0)
            let alpha = stem || (bar && ox > 0 && ox < cell - 1) ? 1.0 : edge ? 0.45 : 0
            return (1, 1, 1, alpha)
        }
    }
}
